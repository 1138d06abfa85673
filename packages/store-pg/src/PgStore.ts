/**
 * The PostgreSQL store: every storage port on one `SqlClient`, and the client built from a URL.
 *
 * Run `PgMigrations.layer` before the repositories are used, e.g.
 * `PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(PgStore.clientLayer({ url })))`.
 * The certificate stores are a layer of their own (`certificatesLayer`), since keeping private keys
 * needs a `PrivateKeyCipher` (the secret) besides the client.
 */
import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import {
  type ApiKeyRepository,
  type CertificateStore,
  type DomainRepository,
  type Http01ChallengeStore,
  type IdempotencyRepository,
  type PetRepository,
  type ProjectRepository,
  StorageError,
  type StorageHealth
} from "@petstore/domain"
import { Duration, Layer, Redacted } from "effect"
import * as PgApiKeyRepository from "./PgApiKeyRepository.js"
import * as PgCertificateStore from "./PgCertificateStore.js"
import * as PgDomainRepository from "./PgDomainRepository.js"
import * as PgHttp01ChallengeStore from "./PgHttp01ChallengeStore.js"
import * as PgIdempotencyRepository from "./PgIdempotencyRepository.js"
import * as PgMigrations from "./PgMigrations.js"
import * as PgPetRepository from "./PgPetRepository.js"
import * as PgProjectRepository from "./PgProjectRepository.js"
import * as PgStorageHealth from "./PgStorageHealth.js"
import type { PrivateKeyCipher } from "./PrivateKeyCipher.js"

export const layer: Layer.Layer<
  | PetRepository
  | IdempotencyRepository
  | ApiKeyRepository
  | ProjectRepository
  | DomainRepository
  | StorageHealth,
  never,
  SqlClient.SqlClient
> = Layer.mergeAll(
  PgPetRepository.layer,
  PgIdempotencyRepository.layer,
  PgApiKeyRepository.layer,
  PgProjectRepository.layer,
  PgDomainRepository.layer,
  PgStorageHealth.layer
)

/** Issued certificates (private keys encrypted with the `PrivateKeyCipher`) and HTTP-01 challenges. */
export const certificatesLayer: Layer.Layer<
  CertificateStore | Http01ChallengeStore,
  never,
  SqlClient.SqlClient | PrivateKeyCipher
> = Layer.mergeAll(PgCertificateStore.layer, PgHttp01ChallengeStore.layer)

/**
 * Every port on `client`, migrated first, private keys encrypted by `cipher`: what a process that
 * serves or works on custom domains runs on.
 */
export const migratedLayer = <E1, R1, E2, R2>(
  client: Layer.Layer<SqlClient.SqlClient, E1, R1>,
  cipher: Layer.Layer<PrivateKeyCipher, E2, R2>
) =>
  Layer.merge(layer, certificatesLayer).pipe(
    Layer.provide(PgMigrations.layer),
    Layer.provide(client),
    Layer.provide(cipher)
  )

export interface ClientOptions {
  /** `postgres://user:password@host:port/database` (query parameters as node-postgres reads them). */
  readonly url: Redacted.Redacted<string> | string
  /** Size of the connection pool (default 10). A single-session server (embedded PGlite) needs 1. */
  readonly maxConnections?: number
  /**
   * Keep idle connections open instead of closing them after 10 seconds. A single-session server
   * needs this: it frees its only slot a moment after a connection closes, so the pool's reconnect
   * would be refused.
   */
  readonly keepIdleConnections?: boolean
  /** How long connecting may take (default 10 seconds). */
  readonly connectTimeout?: Duration.DurationInput
  readonly applicationName?: string
}

/** A `PgClient` (also provided as `SqlClient`); fails with `StorageError` when the server cannot be reached. */
export const clientLayer = (
  options: ClientOptions
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, StorageError> =>
  PgClient.layer({
    url: typeof options.url === "string" ? Redacted.make(options.url) : options.url,
    maxConnections: options.maxConnections,
    // node-postgres reads an idle timeout of 0 as "never close".
    idleTimeout: options.keepIdleConnections === true ? Duration.zero : undefined,
    connectTimeout: options.connectTimeout ?? Duration.seconds(10),
    applicationName: options.applicationName ?? "petstore"
  }).pipe(Layer.mapError((cause) => new StorageError({ operation: "PgStore.connect", cause })))
