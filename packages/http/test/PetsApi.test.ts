import { MemoryStore } from "@petstore/store-memory"
import { petsApiSuite } from "./support/PetsApiSuite.js"

petsApiSuite("the in-memory store", MemoryStore.layer)
