/**
 * The schema of the PostgreSQL store, applied by `effect/sql`'s Migrator. The migrations are listed
 * in a record rather than read from a directory, so they run the same from sources, compiled output
 * or a bundle, and no platform service (FileSystem, Path, `pg_dump`) is needed.
 *
 * Pending migrations run in one transaction under an exclusive lock on the migrations table; only
 * ids above the latest applied one run, so running again is a no-op. Some encrypt what they find
 * (0014, webhook secrets), so the record is made with the `PrivateKeyCipher`.
 */
import type { StorageError } from "@petstore/kernel"
import { Effect, Layer } from "effect"
import { Migrator, type SqlClient } from "effect/sql"
import { storageOperation } from "./internal/storageOperation.js"
import pets from "./migrations/0001_pets.js"
import apiKeys from "./migrations/0002_api_keys.js"
import idempotencyKeys from "./migrations/0003_idempotency_keys.js"
import customDomains from "./migrations/0004_custom_domains.js"
import certificates from "./migrations/0005_certificates.js"
import idempotencyKeysCreatedAt from "./migrations/0006_idempotency_keys_created_at.js"
import apiKeyChanges from "./migrations/0007_api_key_changes.js"
import edgeChanges from "./migrations/0008_edge_changes.js"
import ownership from "./migrations/0009_ownership.js"
import domainEvents from "./migrations/0010_domain_events.js"
import webhooks from "./migrations/0011_webhooks.js"
import projectsByAccount from "./migrations/0012_projects_by_account.js"
import conditionalWrites from "./migrations/0013_conditional_writes.js"
import webhookSafety from "./migrations/0014_webhook_safety.js"
import { PrivateKeyCipher } from "./PrivateKeyCipher.js"

/** Keys are `<id>_<name>`; ids must only grow. */
export const migrations = (cipher: PrivateKeyCipher["Service"]) => ({
  "0001_pets": pets,
  "0002_api_keys": apiKeys,
  "0003_idempotency_keys": idempotencyKeys,
  "0004_custom_domains": customDomains,
  "0005_certificates": certificates,
  "0006_idempotency_keys_created_at": idempotencyKeysCreatedAt,
  "0007_api_key_changes": apiKeyChanges,
  "0008_edge_changes": edgeChanges,
  "0009_ownership": ownership,
  "0010_domain_events": domainEvents,
  "0011_webhooks": webhooks,
  "0012_projects_by_account": projectsByAccount,
  "0013_conditional_writes": conditionalWrites,
  "0014_webhook_safety": webhookSafety(cipher)
})

/** Where applied migrations are recorded. */
export const migrationsTable = "petstore_migrations"

const migrator = Migrator.make({})

/** Applies the pending migrations; yields the `[id, name]` of those it ran (none when up to date). */
export const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  StorageError,
  SqlClient.SqlClient | PrivateKeyCipher
> = Effect.flatMap(PrivateKeyCipher, (cipher) =>
  migrator({ loader: Migrator.fromRecord(migrations(cipher)), table: migrationsTable })
).pipe(storageOperation("PgMigrations.run"))

/** Runs the migrations when the layer is built: provide it before the repositories are used. */
export const layer: Layer.Layer<never, StorageError, SqlClient.SqlClient | PrivateKeyCipher> =
  Layer.effectDiscard(run)
