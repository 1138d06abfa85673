/**
 * The PostgreSQL store: every storage port on one `SqlClient`, and the client built from a URL.
 *
 * Run `PgMigrations.layer` before the repositories are used, e.g.
 * `PgStore.layer.pipe(Layer.provide(PgMigrations.layer), Layer.provide(PgStore.clientLayer({ url })))`.
 * Every layer needs a `PrivateKeyCipher` (the secret) besides the client: it encrypts certificates'
 * private keys (`certificatesLayer`) and webhooks' secrets (`layer`), and the migrations that encrypt
 * what was stored before.
 *
 * API keys are kept in memory once found (`PgApiKeyRepository.layerCached`), dropped as soon as
 * they change: on a server, by listening for the changes other processes make (a connection of its
 * own); on the embedded database, whose client layer says only this process can change it, by
 * this process's own changes. The edge's decisions are kept in memory the same way: the
 * repositories that decide serving announce their changes (`ServingChanges`), and on a server those
 * of other processes are heard (`PgServingChanges`).
 */
import type * as PgClient from "@effect/sql-pg/PgClient"
import type { IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import type { CertificateStore, Http01ChallengeStore } from "@petstore/certificates"
import type { CustomDomainRepository } from "@petstore/domains"
import type { DomainEventRepository } from "@petstore/events"
import type { ApiKeyRepository, StorageError, StorageHealth } from "@petstore/kernel"
import type { ClaimRepository, DecidedWritesStore, OwnershipRepository } from "@petstore/ownership"
import type { ProjectRepository } from "@petstore/projects"
import {
  announcingCertificates,
  announcingCustomDomains,
  announcingDecidedWrites,
  announcingDomainConfigs,
  announcingProjects,
  type DomainConfigRepository,
  type ServingChanges,
  servingChangesLayer
} from "@petstore/serving"
import type { WebhookDeliveryRepository, WebhookRepository } from "@petstore/webhooks"
import { Duration, Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgIdempotencyRepository from "./catalogue/PgIdempotencyRepository.js"
import * as PgPetRepository from "./catalogue/PgPetRepository.js"
import * as PgCertificateStore from "./certificates/PgCertificateStore.js"
import * as PgHttp01ChallengeStore from "./certificates/PgHttp01ChallengeStore.js"
import * as PgDomainRepository from "./domains/PgDomainRepository.js"
import * as PgDomainEventRepository from "./events/PgDomainEventRepository.js"
import { connectedClientLayer } from "./internal/connectedClientLayer.js"
import * as PgApiKeyRepository from "./keys/PgApiKeyRepository.js"
import * as PgClaimRepository from "./ownership/PgClaimRepository.js"
import * as PgDecidedWritesStore from "./ownership/PgDecidedWritesStore.js"
import * as PgOwnershipRepository from "./ownership/PgOwnershipRepository.js"
import * as PgMigrations from "./PgMigrations.js"
import * as PgStorageHealth from "./PgStorageHealth.js"
import type { PrivateKeyCipher } from "./PrivateKeyCipher.js"
import * as PgProjectRepository from "./projects/PgProjectRepository.js"
import * as PgDomainConfigRepository from "./serving/PgDomainConfigRepository.js"
import * as PgServingChanges from "./serving/PgServingChanges.js"
import * as PgWebhookDeliveryRepository from "./webhooks/PgWebhookDeliveryRepository.js"
import * as PgWebhookRepository from "./webhooks/PgWebhookRepository.js"

export const layer: Layer.Layer<
  | PetRepository
  | IdempotencyRepository
  | ApiKeyRepository
  | ProjectRepository
  | DomainConfigRepository
  | CustomDomainRepository
  | DecidedWritesStore
  | DomainEventRepository
  | ClaimRepository
  | OwnershipRepository
  | WebhookRepository
  | WebhookDeliveryRepository
  | StorageHealth
  | ServingChanges,
  never,
  SqlClient.SqlClient | PgClient.PgClient | PrivateKeyCipher
> = Layer.mergeAll(
  PgPetRepository.layer,
  PgIdempotencyRepository.layer,
  PgApiKeyRepository.layerCached(),
  announcingProjects.pipe(Layer.provide(PgProjectRepository.layer)),
  announcingDomainConfigs.pipe(Layer.provide(PgDomainConfigRepository.layer)),
  announcingCustomDomains.pipe(Layer.provide(PgDomainRepository.layer)),
  announcingDecidedWrites.pipe(Layer.provide(PgDecidedWritesStore.layer)),
  PgDomainEventRepository.layer,
  PgClaimRepository.layer,
  PgOwnershipRepository.layer,
  PgWebhookRepository.layer,
  PgWebhookDeliveryRepository.layer,
  PgStorageHealth.layer,
  servingChangesLayer
).pipe(Layer.provide(PgServingChanges.layer))

/**
 * Issued certificates (private keys encrypted with the `PrivateKeyCipher`) and HTTP-01 challenges.
 * Certificates are announced to the same `ServingChanges` as `layer`'s repositories when both are
 * built together (as `migratedLayer` does).
 */
export const certificatesLayer: Layer.Layer<
  CertificateStore | Http01ChallengeStore,
  never,
  SqlClient.SqlClient | PgClient.PgClient | PrivateKeyCipher
> = Layer.mergeAll(
  announcingCertificates.pipe(Layer.provide(PgCertificateStore.layer)),
  PgHttp01ChallengeStore.layer
).pipe(Layer.provide(PgServingChanges.layer))

/**
 * Every port on `client`, migrated first, private keys encrypted by `cipher`: what a process that
 * serves or works on custom domains runs on.
 */
export const migratedLayer = <E1, R1, E2, R2>(
  client: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E1, R1>,
  cipher: Layer.Layer<PrivateKeyCipher, E2, R2>
) =>
  Layer.merge(layer, certificatesLayer).pipe(
    Layer.provide(PgMigrations.layer),
    Layer.provide(client),
    Layer.provide(cipher)
  )

export interface ClientOptions {
  /** `postgres://user:password@host:port/database` (libpq URI parameters: `sslmode`, `connect_timeout`…). */
  readonly url: Redacted.Redacted<string> | string
  /** Size of the connection pool (default 10). */
  readonly maxConnections?: number
  /** Keep idle connections open instead of closing them after 10 seconds. */
  readonly keepIdleConnections?: boolean
  /** How long connecting may take (default 10 seconds). */
  readonly connectTimeout?: Duration.Input
  readonly applicationName?: string
}

/**
 * A `PgClient` (also provided as `SqlClient`); fails with `StorageError` when the server cannot be
 * reached. Statements are prepared (and kept per connection) by @effect/sql-pg, and the statements of
 * concurrent requests are pipelined on the pooled connections (`multiplex`): one write and one read for
 * several statements instead of one each, which took a statement from about 44 to 27 µs of CPU on the
 * benchmark machine. Transactions and the key-change listener still hold a connection of their own.
 * A pipelined statement cannot be cancelled on the server when its request is interrupted (the cancel
 * would hit whichever statement runs): it finishes and its rows are dropped.
 */
export const clientLayer = (
  options: ClientOptions
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, StorageError> =>
  connectedClientLayer({
    url: typeof options.url === "string" ? Redacted.make(options.url) : options.url,
    maxConnections: options.maxConnections,
    idleTimeout: options.keepIdleConnections === true ? Duration.infinity : Duration.seconds(10),
    connectTimeout: options.connectTimeout ?? Duration.seconds(10),
    applicationName: options.applicationName ?? "petstore",
    multiplex: true
  })
