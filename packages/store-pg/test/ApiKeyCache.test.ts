/**
 * The cache of API keys on its own, with a clock of its own: what it serves, what it keeps, and
 * what makes it forget.
 */
import { describe, expect, it } from "@effect/vitest"
import { AccountName, ApiKeyHash, ApiKeyId, ApiKeyRecord } from "@petstore/kernel"
import { Option } from "effect"
import { ApiKeyCache } from "../src/keys/ApiKeyCache.js"

const hashOf = (n: number) => ApiKeyHash.make(n.toString(16).padStart(64, "0"))

const recordOf = (n: number) =>
  Option.some(
    new ApiKeyRecord({
      id: ApiKeyId.make(`key_${n.toString(16).padStart(16, "0")}`),
      account: AccountName.make("cache"),
      hash: hashOf(n),
      createdAt: new Date(0),
      revokedAt: Option.none()
    })
  )

const setup = (options: { readonly capacity?: number; readonly serving?: boolean } = {}) => {
  let now = 0
  const cache = new ApiKeyCache(options.capacity ?? 3, 60_000, () => now, options.serving ?? true)
  const put = (n: number) => cache.keep(cache.beginRead(), hashOf(n), recordOf(n))
  return { cache, put, advance: (millis: number) => (now += millis) }
}

describe("ApiKeyCache", () => {
  it("serves a key it kept, the same record", () => {
    const { cache, put } = setup()
    put(1)
    expect(cache.lookup(hashOf(1))).toEqual(recordOf(1))
    expect(cache.lookup(hashOf(2))).toBeUndefined()
  })

  it("keeps no hash that was not found", () => {
    const { cache } = setup()
    cache.keep(cache.beginRead(), hashOf(1), Option.none())
    expect(cache.size).toBe(0)
    expect(cache.lookup(hashOf(1))).toBeUndefined()
  })

  it("keeps at most `capacity` keys, dropping the oldest", () => {
    const { cache, put } = setup({ capacity: 3 })
    for (const n of [1, 2, 3, 4]) put(n)
    expect(cache.size).toBe(3)
    expect(cache.lookup(hashOf(1))).toBeUndefined()
    for (const n of [2, 3, 4]) expect(cache.lookup(hashOf(n))).toEqual(recordOf(n))
  })

  it("serves a key for at most its time to live", () => {
    const { advance, cache, put } = setup()
    put(1)
    advance(59_999)
    expect(cache.lookup(hashOf(1))).toEqual(recordOf(1))
    advance(1)
    expect(cache.lookup(hashOf(1))).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it("forgets a key that changed, and all keys when everything may have", () => {
    const { cache, put } = setup()
    put(1)
    put(2)
    cache.changed(hashOf(1))
    expect(cache.lookup(hashOf(1))).toBeUndefined()
    expect(cache.lookup(hashOf(2))).toEqual(recordOf(2))
    cache.changedAll()
    expect(cache.size).toBe(0)
  })

  it("does not keep what a read found when anything changed while it read", () => {
    const { cache } = setup()
    const before = cache.beginRead()
    cache.changed(hashOf(9))
    cache.keep(before, hashOf(1), recordOf(1))
    expect(cache.lookup(hashOf(1))).toBeUndefined()
    const after = cache.beginRead()
    cache.keep(after, hashOf(1), recordOf(1))
    expect(cache.lookup(hashOf(1))).toEqual(recordOf(1))
  })

  it("suspended, serves and keeps nothing; resumed, starts empty", () => {
    const { cache, put } = setup()
    put(1)
    const during = cache.beginRead()
    cache.suspend()
    expect(cache.serving).toBe(false)
    expect(cache.lookup(hashOf(1))).toBeUndefined()
    put(2)
    cache.keep(during, hashOf(3), recordOf(3))
    expect(cache.size).toBe(0)
    const acrossResume = cache.beginRead()
    cache.resume()
    cache.keep(acrossResume, hashOf(4), recordOf(4))
    expect(cache.size).toBe(0)
    put(5)
    expect(cache.lookup(hashOf(5))).toEqual(recordOf(5))
  })

  it("a cache created suspended serves nothing until resumed", () => {
    const { cache, put } = setup({ serving: false })
    put(1)
    expect(cache.lookup(hashOf(1))).toBeUndefined()
    cache.resume()
    put(1)
    expect(cache.lookup(hashOf(1))).toEqual(recordOf(1))
  })
})
