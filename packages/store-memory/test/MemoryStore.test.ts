import {
  apiKeyRepositoryContract,
  claimRepositoryContract,
  domainRepositoryContract,
  ownershipRepositoryContract,
  petRepositoryContract,
  projectRepositoryContract,
  storeContract
} from "@petstore/testing"
import { MemoryStore } from "../src/index.js"

storeContract("MemoryStore", MemoryStore.layer)

// A fresh store per port, too: nothing a suite checks depends on rows left by another.
petRepositoryContract("MemoryStore (pets alone)", MemoryStore.layer)
apiKeyRepositoryContract("MemoryStore (keys alone)", MemoryStore.layer)
projectRepositoryContract("MemoryStore (projects alone)", MemoryStore.layer)
domainRepositoryContract("MemoryStore (domains alone)", MemoryStore.layer)
claimRepositoryContract("MemoryStore (claims alone)", MemoryStore.layer)
ownershipRepositoryContract("MemoryStore (ownership alone)", MemoryStore.layer)
