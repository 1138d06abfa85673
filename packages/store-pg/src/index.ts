/**
 * @petstore/store-pg: the storage ports of the domain packages on PostgreSQL (@effect/sql-pg), with
 * its migrations, the encryption at rest of certificates' private keys, an embedded PostgreSQL
 * (PGlite) for running without a database server, and the private data directory they live in.
 */

export * as PgIdempotencyRepository from "./catalogue/PgIdempotencyRepository.js"
export * as PgPetRepository from "./catalogue/PgPetRepository.js"
export * as PgCertificateStore from "./certificates/PgCertificateStore.js"
export * as PgHttp01ChallengeStore from "./certificates/PgHttp01ChallengeStore.js"
export * as PgDomainRepository from "./domains/PgDomainRepository.js"
export * as EmbeddedPostgres from "./EmbeddedPostgres.js"
export * as PgDomainEventRepository from "./events/PgDomainEventRepository.js"
export * as PgApiKeyRepository from "./keys/PgApiKeyRepository.js"
export * as PgClaimRepository from "./ownership/PgClaimRepository.js"
export * as PgDecidedWritesStore from "./ownership/PgDecidedWritesStore.js"
export * as PgOwnershipRepository from "./ownership/PgOwnershipRepository.js"
export * as PgMigrations from "./PgMigrations.js"
export * as PgStorageHealth from "./PgStorageHealth.js"
export * as PgStore from "./PgStore.js"
export * as PrivateDirectory from "./PrivateDirectory.js"
export * as PrivateKeyCipher from "./PrivateKeyCipher.js"
export * as PrivateKeySecret from "./PrivateKeySecret.js"
export * as PgProjectRepository from "./projects/PgProjectRepository.js"
export * as PgDomainConfigRepository from "./serving/PgDomainConfigRepository.js"
export * as PgServingChanges from "./serving/PgServingChanges.js"
export * as PgWebhookDeliveryRepository from "./webhooks/PgWebhookDeliveryRepository.js"
export * as PgWebhookRepository from "./webhooks/PgWebhookRepository.js"
