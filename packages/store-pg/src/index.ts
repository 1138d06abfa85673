/**
 * @petstore/store-pg: the storage ports of the domain packages on PostgreSQL (@effect/sql-pg), with
 * its migrations, the encryption at rest of certificates' private keys, an embedded PostgreSQL
 * (PGlite) for running without a database server, and the private data directory they live in.
 */
export * as EmbeddedPostgres from "./EmbeddedPostgres.js"
export * as PgApiKeyRepository from "./PgApiKeyRepository.js"
export * as PgCertificateStore from "./PgCertificateStore.js"
export * as PgClaimRepository from "./PgClaimRepository.js"
export * as PgDomainEventRepository from "./PgDomainEventRepository.js"
export * as PgDomainRepository from "./PgDomainRepository.js"
export * as PgHttp01ChallengeStore from "./PgHttp01ChallengeStore.js"
export * as PgIdempotencyRepository from "./PgIdempotencyRepository.js"
export * as PgMigrations from "./PgMigrations.js"
export * as PgOwnershipRepository from "./PgOwnershipRepository.js"
export * as PgPetRepository from "./PgPetRepository.js"
export * as PgProjectRepository from "./PgProjectRepository.js"
export * as PgServingChanges from "./PgServingChanges.js"
export * as PgStorageHealth from "./PgStorageHealth.js"
export * as PgStore from "./PgStore.js"
export * as PgWebhookDeliveryRepository from "./PgWebhookDeliveryRepository.js"
export * as PgWebhookRepository from "./PgWebhookRepository.js"
export * as PrivateDirectory from "./PrivateDirectory.js"
export * as PrivateKeyCipher from "./PrivateKeyCipher.js"
export * as PrivateKeySecret from "./PrivateKeySecret.js"
