/**
 * The cached ApiKeyRepository. On a PostgreSQL server (`"notifications"`): a request with a known key
 * makes one query; a key changed by another connection is refused within a short bound; while the
 * listening connection is lost, lookups read the database, and it starts afresh when it listens
 * again; every change to `api_keys` is announced. On the embedded database (`"in-process"`): keys are
 * served from memory without listening, and its own changes drop them at once. (The contract suite
 * runs on the cached repository too, through `PgStore.layer`, in PgStore.test and EmbeddedStore.test.)
 */
import * as PgConnection from "@effect/sql-pg/PgConnection"
import { describe, expect, layer } from "@effect/vitest"
import { ListLimit, PetRepository } from "@petstore/catalogue"
import { type ApiKeyHash, ApiKeyRepository } from "@petstore/kernel"
import { ContractFixtures, eventually, TestDatabase } from "@petstore/testing"
import { Effect, Layer, Option, Queue, Redacted, type Scope, Tracer } from "effect"
import { EmbeddedPostgres, PgApiKeyRepository, PgMigrations, PgPetRepository, PgStore } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"
import { testCipher } from "./testCipher.js"

/** The SQL statements `effect` ran, with what it yielded (read from the statements' spans). */
const withStatements = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const spans: Array<Tracer.NativeSpan> = []
    const tracer = Tracer.make({
      span(options) {
        const span = new Tracer.NativeSpan(options)
        spans.push(span)
        return span
      }
    })
    return Effect.map(Effect.withTracer(effect, tracer), (value) => ({
      value,
      statements: spans.flatMap((span) => {
        const text = span.attributes.get("db.query.text")
        return typeof text === "string" ? [text.replace(/\s+/g, " ").trim()] : []
      })
    }))
  })

const isRevoked = (found: Option.Option<{ readonly revokedAt: Option.Option<Date> }>) =>
  Option.isSome(found) && Option.isSome(found.value.revokedAt)

const listQuery = {
  limit: ListLimit.make(20),
  status: Option.some("available" as const),
  after: Option.none()
}

/** A key stored, then looked up until it is served from memory (no statement). */
const cachedKey = Effect.gen(function* () {
  const keys = yield* ApiKeyRepository
  const record = yield* ContractFixtures.freshApiKey("cache")
  yield* keys.insert(record)
  const served = yield* eventually(
    withStatements(keys.findByHash(record.hash)),
    (run) => run.statements.length === 0
  )
  expect(Option.map(served.value, (found) => found.id)).toEqual(Option.some(record.id))
  return record
})

/** A connection of the test's own to the same database: "another process". */
const otherConnection = (url: string): Effect.Effect<PgConnection.PgConnection, unknown, Scope.Scope> =>
  PgConnection.make({ url: Redacted.make(url) })

/** The server process that LISTENs for key changes on this database, if one does. */
const listenerPid = (other: PgConnection.PgConnection) =>
  Effect.map(
    other.query(
      `select pid from pg_stat_activity
       where datname = current_database() and query ilike 'listen %${PgApiKeyRepository.changesChannel}%'`
    ),
    (result) => result.rows.map((row) => Number(row.pid))
  )

/** A change made with triggers off for the session: nothing announces it. */
const unannounced = (other: PgConnection.PgConnection, statement: string, hash: ApiKeyHash) =>
  Effect.andThen(
    other.query("set session_replication_role = replica"),
    Effect.ensuring(
      other.query(statement, [hash]),
      Effect.ignore(other.query("reset session_replication_role"))
    )
  )

const serverStore = Layer.mergeAll(PgApiKeyRepository.layerCached(), PgPetRepository.layer).pipe(
  Layer.provide(PgMigrations.layer),
  Layer.provideMerge(
    Layer.unwrap(
      Effect.map(TestDatabase.TestDatabase, (database) => PgStore.clientLayer({ url: database.url }))
    )
  ),
  Layer.provideMerge(TestDatabase.layer),
  Layer.provide(testCipher)
)

layer(serverStore, { excludeTestServices: true, timeout: 60_000 })(
  "cached ApiKeyRepository on PostgreSQL",
  (it) => {
    it.effect("a list request with a known key makes one query, not two; unknown hashes always two", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyRepository
        const pets = yield* PetRepository
        const record = yield* cachedKey
        const request = (hash: ApiKeyHash) => Effect.andThen(keys.findByHash(hash), pets.list(listQuery))
        const known = yield* withStatements(request(record.hash))
        expect(known.statements).toHaveLength(1)
        expect(known.statements[0]).toContain("from pets")

        const unknown = yield* ContractFixtures.freshApiKey("unknown")
        for (let n = 0; n < 3; n++) {
          const run = yield* withStatements(request(unknown.hash))
          expect(run.statements).toHaveLength(2)
          expect(run.statements[0]).toContain("from api_keys")
        }
      })
    )

    it.effect("a key revoked by another connection is refused within 2 seconds; one deleted, not found", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyRepository
        const { url } = yield* TestDatabase.TestDatabase
        const other = yield* otherConnection(url)
        const revoked = yield* cachedKey
        yield* other.query("update api_keys set revoked_at = now() where hash = $1", [revoked.hash])
        yield* eventually(keys.findByHash(revoked.hash), isRevoked)

        const deleted = yield* cachedKey
        yield* other.query("delete from api_keys where hash = $1", [deleted.hash])
        yield* eventually(keys.findByHash(deleted.hash), Option.isNone)
      })
    )

    it.effect("revoking through the repository drops the key at once", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyRepository
        const record = yield* cachedKey
        expect(yield* keys.revoke(record.id, ContractFixtures.t0)).toBe(true)
        expect(isRevoked(yield* keys.findByHash(record.hash))).toBe(true)
      })
    )

    it.effect(
      "while the listening connection is lost, lookups read the database: a change then is seen at once",
      () =>
        Effect.gen(function* () {
          const keys = yield* ApiKeyRepository
          const { url } = yield* TestDatabase.TestDatabase
          const other = yield* otherConnection(url)
          const record = yield* cachedKey
          const [pid] = yield* eventually(listenerPid(other), (pids) => pids.length === 1)
          yield* other.query("select pg_terminate_backend($1)", [pid])
          // The loss is noticed: lookups read the database again.
          yield* eventually(
            withStatements(keys.findByHash(record.hash)),
            (run) => run.statements.length === 1
          )
          yield* unannounced(other, "update api_keys set revoked_at = now() where hash = $1", record.hash)
          expect(isRevoked(yield* keys.findByHash(record.hash))).toBe(true)
          // It listens again, and keys are served from memory again.
          yield* eventually(listenerPid(other), (pids) => pids.length === 1 && pids[0] !== pid)
          yield* cachedKey
        })
    )

    it.effect(
      "listening again starts afresh: a key changed while nothing listened is not served as it was",
      () =>
        Effect.gen(function* () {
          const keys = yield* ApiKeyRepository
          const { url } = yield* TestDatabase.TestDatabase
          const other = yield* otherConnection(url)
          const record = yield* cachedKey
          const [pid] = yield* eventually(listenerPid(other), (pids) => pids.length === 1)
          yield* other.query("select pg_terminate_backend($1)", [pid])
          yield* unannounced(other, "update api_keys set revoked_at = now() where hash = $1", record.hash)
          yield* eventually(listenerPid(other), (pids) => pids.length === 1 && pids[0] !== pid)
          expect(isRevoked(yield* keys.findByHash(record.hash))).toBe(true)
          const again = yield* eventually(
            withStatements(keys.findByHash(record.hash)),
            (run) => run.statements.length === 0
          )
          expect(isRevoked(again.value)).toBe(true)
        })
    )

    it.effect("every change to api_keys is announced with its hash; emptying the table, with none", () =>
      Effect.gen(function* () {
        const { url } = yield* TestDatabase.TestDatabase
        const listening = yield* otherConnection(url)
        const other = yield* otherConnection(url)
        const changes = yield* listening.listen(PgApiKeyRepository.changesChannel)
        const [first, second] = [yield* ContractFixtures.freshApiKey(), yield* ContractFixtures.freshApiKey()]
        const announced = (count: number) =>
          Effect.map(
            Effect.forEach(Array.from({ length: count }), () => Queue.take(changes)),
            (all) => all.map((change) => change.payload)
          )
        yield* other.query(
          "insert into api_keys (id, account, hash, created_at) values ($1, 'acct', $2, now())",
          [first.id, first.hash]
        )
        expect(yield* announced(1)).toEqual([first.hash])
        yield* other.query("update api_keys set revoked_at = now() where hash = $1", [first.hash])
        expect(yield* announced(1)).toEqual([first.hash])
        yield* other.query("update api_keys set hash = $2 where hash = $1", [first.hash, second.hash])
        expect(yield* announced(2)).toEqual([first.hash, second.hash])
        yield* other.query("delete from api_keys where hash = $1", [second.hash])
        expect(yield* announced(1)).toEqual([second.hash])
        // Nothing is announced for a statement that changes nothing, nor before a change commits.
        yield* other.query("update api_keys set account = 'x' where hash = $1", [first.hash])
        yield* other.query("begin")
        yield* other.query(
          "insert into api_keys (id, account, hash, created_at) values ($1, 'acct', $2, now())",
          [second.id, second.hash]
        )
        expect(yield* Queue.poll(changes)).toEqual(Option.none())
        yield* other.query("commit")
        expect(yield* announced(1)).toEqual([second.hash])
        yield* other.query("truncate api_keys")
        expect(yield* announced(1)).toEqual([""])
      })
    )
  }
)

const embeddedStore = Layer.unwrap(
  Effect.map(temporaryDirectory, (dataDirectory) =>
    PgStore.layer.pipe(
      Layer.provide(PgMigrations.layer),
      Layer.provide(EmbeddedPostgres.clientLayer({ dataDirectory })),
      Layer.provide(testCipher)
    )
  )
)

describe("cached ApiKeyRepository on the embedded database", () => {
  layer(embeddedStore, { excludeTestServices: true, timeout: 120_000 })("in process", (it) => {
    it.effect("a known key is served from memory from the second lookup on, with nothing listening", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyRepository
        const pets = yield* PetRepository
        const record = yield* ContractFixtures.freshApiKey("embedded")
        yield* keys.insert(record)
        expect((yield* withStatements(keys.findByHash(record.hash))).statements).toHaveLength(1)
        const again = yield* withStatements(keys.findByHash(record.hash))
        expect(again.statements).toEqual([])
        expect(Option.map(again.value, (found) => found.id)).toEqual(Option.some(record.id))
        // The one connection is free for everything else.
        expect((yield* withStatements(pets.list(listQuery))).statements).toHaveLength(1)
      })
    )

    it.effect("revoking through the repository drops the key at once", () =>
      Effect.gen(function* () {
        const keys = yield* ApiKeyRepository
        const record = yield* ContractFixtures.freshApiKey("embedded")
        yield* keys.insert(record)
        yield* keys.findByHash(record.hash)
        expect((yield* withStatements(keys.findByHash(record.hash))).statements).toEqual([])
        expect(yield* keys.revoke(record.id, ContractFixtures.t0)).toBe(true)
        const after = yield* withStatements(keys.findByHash(record.hash))
        expect(after.statements).toHaveLength(1)
        expect(isRevoked(after.value)).toBe(true)
      })
    )
  })
})
