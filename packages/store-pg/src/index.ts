/**
 * @petstore/store-pg: the storage ports of @petstore/domain on PostgreSQL (@effect/sql-pg), with
 * its migrations, and an embedded PostgreSQL (PGlite) for running without a database server.
 */
export * as EmbeddedPostgres from "./EmbeddedPostgres.js"
export * as PgApiKeyRepository from "./PgApiKeyRepository.js"
export * as PgDomainRepository from "./PgDomainRepository.js"
export * as PgIdempotencyRepository from "./PgIdempotencyRepository.js"
export * as PgMigrations from "./PgMigrations.js"
export * as PgPetRepository from "./PgPetRepository.js"
export * as PgProjectRepository from "./PgProjectRepository.js"
export * as PgStorageHealth from "./PgStorageHealth.js"
export * as PgStore from "./PgStore.js"
