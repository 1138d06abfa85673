/**
 * The behaviour every ApiKeyRepository must have, as a test suite run against each adapter. Every
 * test uses keys of its own.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { ApiKeyId, ApiKeyRecord, ApiKeyRepository, hashApiKeyToken } from "@petstore/kernel"
import { Effect, type Layer, Option } from "effect"
import { freshApiKey, later, randomToken, t0 } from "./ContractFixtures.js"

/** The stored fields, as plain values (dates as milliseconds). */
const fields = (record: ApiKeyRecord) => ({
  id: record.id,
  account: record.account,
  hash: record.hash,
  createdAt: record.createdAt.getTime(),
  revokedAt: Option.map(record.revokedAt, (date) => date.getTime())
})

export const apiKeyRepositoryTests = (it: Vitest.MethodsNonLive<ApiKeyRepository>): void => {
  it.effect("insert, then findByHash returns the record", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeyRepository
      const record = yield* freshApiKey("alice", later(t0, 123))
      yield* keys.insert(record)
      const found = yield* keys.findByHash(record.hash)
      expect(Option.map(found, fields)).toEqual(Option.some(fields(record)))
    })
  )

  it.effect("findByHash answers none for an unknown hash", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeyRepository
      expect(yield* keys.findByHash(yield* hashApiKeyToken(yield* randomToken))).toEqual(Option.none())
    })
  )

  it.effect("insert is idempotent on the hash: the first record stays", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeyRepository
      const record = yield* freshApiKey()
      const other = yield* freshApiKey("mallory", later(t0, 5_000))
      const sameHash = new ApiKeyRecord({ ...other, hash: record.hash })
      yield* keys.insert(record)
      yield* keys.insert(record)
      yield* keys.insert(sameHash)
      const found = yield* keys.findByHash(record.hash)
      expect(Option.map(found, fields)).toEqual(Option.some(fields(record)))
      const listed = (yield* keys.list).filter((stored) => stored.hash === record.hash)
      expect(listed.map(fields)).toEqual([fields(record)])
    })
  )

  it.effect("list contains every inserted key", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeyRepository
      const records = [yield* freshApiKey("bob", t0), yield* freshApiKey("carol", later(t0, 1_000))]
      yield* Effect.forEach(records, keys.insert)
      const ids = new Set(records.map((record) => record.id))
      const listed = (yield* keys.list).filter((stored) => ids.has(stored.id))
      expect(listed.map(fields)).toEqual(records.map(fields))
    })
  )

  it.effect("revoke marks the key once; unknown or already revoked keys answer false", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeyRepository
      const record = yield* freshApiKey()
      yield* keys.insert(record)
      const at = later(t0, 60_000)
      expect(yield* keys.revoke(record.id, at)).toBe(true)
      const found = yield* keys.findByHash(record.hash)
      expect(Option.map(found, fields)).toEqual(
        Option.some({ ...fields(record), revokedAt: Option.some(at.getTime()) })
      )
      expect(yield* keys.revoke(record.id, later(at, 1_000))).toBe(false)
      const stillFirst = yield* keys.findByHash(record.hash)
      expect(Option.flatMap(stillFirst, (stored) => stored.revokedAt)).toEqual(Option.some(at))
      expect(yield* keys.revoke(ApiKeyId.make("key_0000000000000000"), at)).toBe(false)
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const apiKeyRepositoryContract = <E>(name: string, store: Layer.Layer<ApiKeyRepository, E>): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("ApiKeyRepository", () => apiKeyRepositoryTests(it))
  )
