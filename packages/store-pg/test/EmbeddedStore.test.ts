/**
 * The repository contract against the embedded PGlite, plus what is particular to it: data persists
 * in its directory, the directory is locked while open, statements of concurrent requests queue on
 * its single connection without leaking into each other's transactions, nothing listens for other
 * processes, and the directory is private.
 */

import { chmod, mkdir, readdir, readFile, readlink, stat, writeFile } from "node:fs/promises"
import { Server } from "node:net"
import { join } from "node:path"
import { describe, expect, it, vi } from "@effect/vitest"
import { IdempotencyKey, IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import { AccountName, ApiKeyRepository } from "@petstore/kernel"
import { ContractFixtures, storeContract } from "@petstore/testing"
import { Array as Arr, Effect, Exit, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPostgres, PgMigrations, PgStore, PrivateKeyCipher } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

const embeddedStore = (dataDirectory: string) => {
  const client = EmbeddedPostgres.clientLayer({ dataDirectory })
  const stores = Layer.mergeAll(PgStore.layer, PgStore.certificatesLayer)
  return Layer.provideMerge(stores, Layer.provideMerge(PgMigrations.layer, client)).pipe(
    Layer.provideMerge(PrivateKeyCipher.layer(Redacted.make("test secret for the embedded PGlite store")))
  )
}

const modeOf = (path: string) => Effect.promise(() => stat(path)).pipe(Effect.map((s) => s.mode & 0o777))

/**
 * The files and directories under `directory`, and in `looser` each of them (with its mode) that the
 * group or others may use: none when every file is 0600 or stricter and every directory 0700.
 */
const modesUnder = (directory: string) =>
  Effect.promise(async () => {
    const entries = await readdir(directory, { recursive: true }).catch((): Array<string> => [])
    const files: Array<string> = []
    const directories: Array<string> = []
    const looser: Array<string> = []
    for (const entry of entries) {
      const info = await stat(join(directory, entry)).catch(() => undefined)
      if (info === undefined) continue
      const mode = info.mode & 0o777
      if (info.isDirectory()) {
        directories.push(entry)
        if (mode !== 0o700) looser.push(`${entry} ${mode.toString(8)}`)
      } else {
        files.push(entry)
        if ((mode & 0o077) !== 0) looser.push(`${entry} ${mode.toString(8)}`)
      }
    }
    return { files, directories, looser }
  })

/**
 * The inodes of the listening sockets (TCP, TCP over IPv6, Unix) this process holds, from Linux's
 * /proc; elsewhere none are found, and the `listen` spy below is what checks.
 */
const listeningSockets: Effect.Effect<ReadonlyArray<string>> = Effect.promise(async () => {
  const read = (path: string) => readFile(path, "utf8").catch(() => "")
  const rows = (text: string) =>
    text
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
  const listening = new Set<string>()
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    // st 0A is LISTEN; the inode is the tenth column.
    for (const row of rows(await read(table)))
      if (row[3] === "0A" && row[9] !== undefined) listening.add(row[9])
  }
  // Flags 00010000 (accepting connections) is a listening Unix socket; the inode is the seventh column.
  for (const row of rows(await read("/proc/net/unix"))) {
    if (row[3] === "00010000" && row[6] !== undefined) listening.add(row[6])
  }
  const descriptors = await readdir("/proc/self/fd").catch((): Array<string> => [])
  const owned = await Promise.all(descriptors.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => "")))
  return owned
    .map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1])
    .filter((inode): inode is string => inode !== undefined && listening.has(inode))
    .sort()
})

/** Every path under `directory` that is a socket. */
const socketsUnder = (directory: string) =>
  Effect.promise(async () => {
    const entries = await readdir(directory, { recursive: true })
    const kinds = await Promise.all(
      entries.map((entry) => stat(join(directory, entry)).catch(() => undefined))
    )
    return entries.filter((_, index) => kinds[index]?.isSocket() === true)
  })

storeContract("PgStore on embedded PGlite", Layer.unwrap(Effect.map(temporaryDirectory, embeddedStore)), {
  timeout: 120_000
})

describe("EmbeddedPostgres", () => {
  it.live(
    "nothing listens: no TCP port, no socket, so no other process or user can connect",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = join(yield* temporaryDirectory, "data")
          const before = yield* listeningSockets
          const listen = vi.spyOn(Server.prototype, "listen")
          yield* Effect.addFinalizer(() => Effect.sync(() => listen.mockRestore()))
          yield* Effect.gen(function* () {
            const pets = yield* PetRepository
            const pet = yield* pets.create(ContractFixtures.newPet("Private"), Option.none())
            expect(yield* pets.findById(pet.id)).toEqual(Option.some(pet))
            expect(listen).not.toHaveBeenCalled()
            expect(yield* listeningSockets).toEqual(before)
            expect(yield* socketsUnder(directory)).toEqual([])
          }).pipe(Effect.provide(embeddedStore(directory)))
        })
      ),
    120_000
  )

  it.live(
    "the data directory is private (0700) before PGlite writes into it, whether it was missing or looser",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const root = yield* temporaryDirectory
          const missing = join(root, "missing", "data")
          const opened = yield* Effect.scoped(EmbeddedPostgres.start({ dataDirectory: missing }))
          expect(opened.dataDirectory).toBe(missing)
          expect(yield* modeOf(missing)).toBe(0o700)
          expect((yield* Effect.promise(() => readdir(missing))).length).toBeGreaterThan(0)

          const loose = join(root, "loose")
          yield* Effect.promise(() => mkdir(loose))
          yield* Effect.promise(() => chmod(loose, 0o755))
          yield* Effect.scoped(
            Effect.gen(function* () {
              yield* EmbeddedPostgres.start({ dataDirectory: loose })
              expect(yield* modeOf(loose)).toBe(0o700)
            })
          )
          expect(yield* modeOf(loose)).toBe(0o700)
        })
      ),
    120_000
  )

  it.live(
    "every file of the database is private (0600) and every directory 0700, at start and after writes",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = join(yield* temporaryDirectory, "data")
          yield* Effect.gen(function* () {
            const opened = yield* modesUnder(directory)
            expect(opened.files.length).toBeGreaterThan(100)
            expect(opened.directories.length).toBeGreaterThan(10)
            expect(opened.looser).toEqual([])
            // New tables, rows and WAL segments: files PGlite creates while it runs.
            const sql = yield* SqlClient.SqlClient
            yield* sql`create table private_files_probe (x int)`
            yield* sql`insert into private_files_probe select generate_series(1, 50000)`
            yield* sql`checkpoint`
            expect((yield* modesUnder(directory)).looser).toEqual([])
          }).pipe(Effect.provide(embeddedStore(directory)))
          expect((yield* modesUnder(directory)).looser).toEqual([])
        })
      ),
    120_000
  )

  it.live(
    "data survives closing and reopening the directory",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = yield* temporaryDirectory
          const scope = { account: AccountName.make("persist"), key: IdempotencyKey.make("persist-1") }
          const apiKey = yield* ContractFixtures.freshApiKey("persist")

          const written = yield* Effect.gen(function* () {
            const pets = yield* PetRepository
            const keys = yield* IdempotencyRepository
            const apiKeys = yield* ApiKeyRepository
            yield* keys.reserve(scope, "fp", ContractFixtures.t0)
            const first = yield* pets.create(ContractFixtures.newPet("Persistent 🐢"), Option.some(scope))
            const second = yield* pets.create(
              ContractFixtures.newPet("Big", { status: "sold", categoryId: 9007199254740991 }),
              Option.none()
            )
            yield* apiKeys.insert(apiKey)
            return [first, second] as const
          }).pipe(Effect.provide(embeddedStore(directory)))

          yield* Effect.gen(function* () {
            const pets = yield* PetRepository
            const keys = yield* IdempotencyRepository
            const apiKeys = yield* ApiKeyRepository
            expect(yield* pets.list(ContractFixtures.query(10))).toEqual({
              pets: written,
              nextAfter: Option.none()
            })
            expect(
              yield* keys.reserve(scope, "fp", ContractFixtures.later(ContractFixtures.t0, 1_000))
            ).toEqual({
              _tag: "Replay",
              petId: written[0].id
            })
            expect(Option.map(yield* apiKeys.findByHash(apiKey.hash), (found) => found.id)).toEqual(
              Option.some(apiKey.id)
            )
            const third = yield* pets.create(ContractFixtures.newPet("After reopening"), Option.none())
            expect(third.id).toBeGreaterThan(written[1].id)
            // Reopening applied no migration twice.
            expect(yield* PgMigrations.run).toEqual([])
          }).pipe(Effect.provide(embeddedStore(directory)))
        })
      ),
    120_000
  )

  it.live(
    "the directory is locked while open; a lock left by a dead process is taken over",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = yield* temporaryDirectory
          yield* Effect.scoped(
            Effect.gen(function* () {
              yield* EmbeddedPostgres.start({ dataDirectory: directory })
              const second = yield* Effect.exit(
                Effect.scoped(EmbeddedPostgres.start({ dataDirectory: directory }))
              )
              expect(Exit.isFailure(second)).toBe(true)
              if (Exit.isFailure(second)) expect(String(second.cause)).toContain("is in use by process")
            })
          )
          yield* Effect.promise(() => writeFile(join(directory, EmbeddedPostgres.lockFileName), "999999999"))
          const reopened = yield* Effect.scoped(EmbeddedPostgres.start({ dataDirectory: directory }))
          expect(reopened.dataDirectory).toBe(directory)
        })
      ),
    120_000
  )

  it.live(
    "concurrent statements queue on the one connection and stay out of a transaction that rolls back",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const directory = yield* temporaryDirectory
          yield* Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const pets = yield* PetRepository
            const marker = yield* ContractFixtures.createMarker
            const doomed = sql.withTransaction(
              Effect.gen(function* () {
                yield* pets.create(ContractFixtures.newPet("Rolled back"), Option.none())
                yield* Effect.sleep("200 millis")
                return yield* Effect.fail("abort" as const)
              })
            )
            const [rolledBack, created] = yield* Effect.all(
              [
                Effect.exit(doomed),
                Effect.delay(
                  Effect.forEach(
                    Arr.range(1, 20),
                    (n) => pets.create(ContractFixtures.newPet(`Q${n}`), Option.none()),
                    {
                      concurrency: "unbounded"
                    }
                  ),
                  "20 millis"
                )
              ],
              { concurrency: "unbounded" }
            )
            expect(Exit.isFailure(rolledBack)).toBe(true)
            const listed = yield* pets.list(ContractFixtures.query(100, { after: marker.id }))
            expect(listed.pets.map((pet) => pet.name)).not.toContain("Rolled back")
            expect(listed.pets.map((pet) => pet.id)).toEqual(
              created.map((pet) => pet.id).sort((a, b) => a - b)
            )
          }).pipe(Effect.provide(embeddedStore(directory)))
        })
      ),
    120_000
  )
})
