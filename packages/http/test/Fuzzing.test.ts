import { MemoryStore } from "@petstore/store-memory"
import { fuzzSuite } from "./support/FuzzSuite.js"

fuzzSuite("the in-memory store", MemoryStore.layer)
