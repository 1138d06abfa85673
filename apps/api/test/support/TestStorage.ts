/**
 * Storage for in-process tests, built by the API's own `storageLayer` (migrations, certificate store,
 * the secret kept in a data directory): a fresh database or data directory per use, removed after.
 */
import { TestDatabase } from "@petstore/testing"
import { Effect, Layer, Redacted } from "effect"
import { storageLayer } from "../../src/Storage.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

/** A fresh database on the test PostgreSQL server (fails loudly when it is unreachable). */
export const postgresTestStorage = () =>
  Layer.unwrap(
    Effect.gen(function* () {
      const database = yield* TestDatabase.make
      const dataDir = yield* temporaryDirectory
      return storageLayer({ _tag: "Postgres", url: Redacted.make(database.url), dataDir })
    })
  )

/** A fresh embedded PostgreSQL (PGlite) data directory. */
export const embeddedTestStorage = () =>
  Layer.unwrap(Effect.map(temporaryDirectory, (dataDir) => storageLayer({ _tag: "Embedded", dataDir })))
