/**
 * @petstore/domain: the animal catalogue's schemas, rules, typed errors and ports.
 * Pure: no I/O and no adapter; adapters implement the ports.
 */
export * from "./Account.js"
export * from "./ApiKey.js"
export * from "./ApiKeyManagement.js"
export * from "./ApiKeyRepository.js"
export * from "./Authentication.js"
export * from "./Errors.js"
export * from "./GetPetLifecycle.js"
export * from "./Idempotency.js"
export * from "./IdempotencyRepository.js"
export * from "./ListLimit.js"
export * from "./Pet.js"
export * from "./PetCatalogue.js"
export * from "./PetId.js"
export * from "./PetName.js"
export * from "./PetQuery.js"
export * from "./PetRepository.js"
export * from "./PetStatus.js"
export * from "./SafeInteger.js"
export * from "./StorageHealth.js"
