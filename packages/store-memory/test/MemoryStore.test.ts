import {
  apiKeyRepositoryContract,
  claimRepositoryContract,
  domainEventRepositoryContract,
  domainRepositoryContract,
  ownershipRepositoryContract,
  petRepositoryContract,
  projectRepositoryContract,
  storeContract,
  webhookDeliveryRepositoryContract,
  webhookRepositoryContract
} from "@petstore/testing"
import { Layer } from "effect"
import { MemoryDomainRepository, MemoryProjectRepository, MemoryStore } from "../src/index.js"

storeContract("MemoryStore", MemoryStore.layer)

// A fresh store per port, too: nothing a suite checks depends on rows left by another.
petRepositoryContract("MemoryStore (pets alone)", MemoryStore.layer)
apiKeyRepositoryContract("MemoryStore (keys alone)", MemoryStore.layer)
projectRepositoryContract("MemoryStore (projects alone)", MemoryStore.layer)
domainRepositoryContract("MemoryStore (domains alone)", MemoryStore.layer)
domainEventRepositoryContract("MemoryStore (events alone)", MemoryStore.layer)

// The domain repository's own layer, for what needs domains alone: its events are on its own table.
const domainsAlone = Layer.merge(MemoryDomainRepository.layer, MemoryProjectRepository.layer)
domainRepositoryContract("MemoryDomainRepository.layer", domainsAlone)
domainEventRepositoryContract("MemoryDomainRepository.layer", domainsAlone)
claimRepositoryContract("MemoryStore (claims alone)", MemoryStore.layer)
ownershipRepositoryContract("MemoryStore (ownership alone)", MemoryStore.layer)
webhookRepositoryContract("MemoryStore (webhooks alone)", MemoryStore.layer)
webhookDeliveryRepositoryContract("MemoryStore (deliveries alone)", MemoryStore.layer)
