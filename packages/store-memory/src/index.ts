/**
 * @petstore/store-memory: the storage ports of the domain packages kept in memory.
 */
export * as MemoryApiKeyRepository from "./MemoryApiKeyRepository.js"
export * as MemoryCertificateStore from "./MemoryCertificateStore.js"
export * as MemoryClaimRepository from "./MemoryClaimRepository.js"
export * as MemoryDomainEventRepository from "./MemoryDomainEventRepository.js"
export * as MemoryDomainRepository from "./MemoryDomainRepository.js"
export * as MemoryDomainTable from "./MemoryDomainTable.js"
export * as MemoryHttp01ChallengeStore from "./MemoryHttp01ChallengeStore.js"
export * as MemoryIdempotencyRepository from "./MemoryIdempotencyRepository.js"
export * as MemoryIdempotencyTable from "./MemoryIdempotencyTable.js"
export * as MemoryOwnershipRepository from "./MemoryOwnershipRepository.js"
export * as MemoryPetRepository from "./MemoryPetRepository.js"
export * as MemoryProjectRepository from "./MemoryProjectRepository.js"
export * as MemoryRateLimiterStore from "./MemoryRateLimiterStore.js"
export * as MemoryStorageHealth from "./MemoryStorageHealth.js"
export * as MemoryStore from "./MemoryStore.js"
