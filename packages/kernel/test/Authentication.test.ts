import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import {
  AccountName,
  type ApiKeyHash,
  ApiKeyId,
  ApiKeyRecord,
  ApiKeyRepository,
  apiKeyPrefix,
  authenticate,
  bearerTokenFromHeader,
  constantTimeEquals,
  generateApiKeyId,
  generateApiKeyToken,
  hashApiKeyToken,
  isWellFormedBearerToken,
  StorageError
} from "../src/index.js"

describe("bearerTokenFromHeader", () => {
  it.each([
    ["Bearer abc", "abc"],
    ["bearer abc", "abc"],
    ["BEARER abc", "abc"],
    ["bEaReR abc", "abc"],
    ["Bearer  abc", "abc"],
    ["Bearer abc ", "abc"],
    ["Bearer pk_live_AZaz09-_", "pk_live_AZaz09-_"],
    ["Bearer a.b~c+d/e==", "a.b~c+d/e=="],
    [`Bearer ${"x".repeat(512)}`, "x".repeat(512)]
  ])("reads %j", (header, token) => {
    expect(bearerTokenFromHeader(header)).toStrictEqual(Option.some(token))
  })

  it.each([
    ["a missing header", undefined],
    ["an empty header", ""],
    ["the scheme alone", "Bearer"],
    ["the scheme and a space", "Bearer "],
    ["the scheme and two spaces", "Bearer  "],
    ["another scheme", "Basic dXNlcjpwYXNz"],
    ["another scheme with a short value", "Basic x"],
    ["a token without a scheme", "abc"],
    ["two tokens", "Bearer abc def"],
    ["a scheme glued to the token", "Bearerabc"],
    ["a token longer than 512 characters", `Bearer ${"x".repeat(513)}`],
    ["a token with a quote", 'Bearer ab"c'],
    ["a token with a comma", "Bearer ab,c"],
    ["a token with a dollar", "Bearer abc$"],
    ["a token with a non-ASCII letter", "Bearer abcé"],
    ["a token with padding in the middle", "Bearer ab=c"],
    ["a token of padding only", "Bearer ==="],
    ["a token with a NUL", "Bearer ab\u0000c"]
  ])("finds no token in %s", (_, header) => {
    expect(bearerTokenFromHeader(header)).toStrictEqual(Option.none())
  })

  it("reads back every well-formed token", () => {
    const b64char = fc.constantFrom(..."ABCXYZabcxyz0189-._~+/".split(""))
    fc.assert(
      fc.property(
        fc.string({ unit: b64char, minLength: 1, maxLength: 500 }),
        fc.string({ unit: fc.constant("="), maxLength: 3 }),
        (body, padding) => {
          const token = body + padding
          expect(isWellFormedBearerToken(token)).toBe(token.length <= 512)
          expect(bearerTokenFromHeader(`Bearer ${token}`)).toStrictEqual(
            token.length <= 512 ? Option.some(token) : Option.none()
          )
        }
      )
    )
  })
})

describe("API key tokens and hashes", () => {
  it.effect("hashes with SHA-256 as lower-case hex (known vectors)", () =>
    Effect.gen(function* () {
      expect(yield* hashApiKeyToken("abc")).toBe(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
      )
      expect(yield* hashApiKeyToken("")).toBe(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
      )
      // UTF-8, not UTF-16: sha256 of the two bytes c3 a9.
      expect(yield* hashApiKeyToken("\u00e9")).toBe(
        "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"
      )
    })
  )

  it.effect("generates keys with the recognisable prefix and 256 random bits, all distinct", () =>
    Effect.gen(function* () {
      const tokens = yield* Effect.replicateEffect(generateApiKeyToken, 200)
      expect(apiKeyPrefix).toBe("pk_live_")
      for (const token of tokens) {
        expect(token).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/)
        expect(bearerTokenFromHeader(`Bearer ${token}`)).toStrictEqual(Option.some(token))
      }
      expect(new Set(tokens).size).toBe(tokens.length)
    })
  )

  it.effect("generates key ids of the documented shape, all distinct", () =>
    Effect.gen(function* () {
      const ids = yield* Effect.replicateEffect(generateApiKeyId, 100)
      for (const id of ids) expect(id).toMatch(/^key_[0-9a-f]{16}$/)
      expect(new Set(ids).size).toBe(ids.length)
    })
  )
})

describe("constantTimeEquals", () => {
  it.each([
    ["", "", true],
    ["abc", "abc", true],
    ["abc", "abd", false],
    ["abc", "Abc", false],
    ["abc", "ab", false],
    ["ab", "abc", false],
    ["abc", "abc\u0000", false],
    ["\u0000", "", false],
    ["", "a", false],
    ["🐶", "🐶", true],
    ["🐶", "🐈", false]
  ])("%j vs %j → %s", (a, b, expected) => {
    expect(constantTimeEquals(a, b)).toBe(expected)
    expect(constantTimeEquals(b, a)).toBe(expected)
  })

  it("agrees with === on arbitrary strings, including prefixes of each other", () => {
    const pair = fc.oneof(
      fc.tuple(fc.string({ unit: "binary" }), fc.string({ unit: "binary" })),
      fc.string({ unit: "binary" }).map((a) => [a, a] as const),
      fc.tuple(fc.string(), fc.string()).map(([a, suffix]) => [a, a + suffix] as const)
    )
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(constantTimeEquals(a, b)).toBe(a === b)
      }),
      { numRuns: 1000 }
    )
  })
})

// ---------------------------------------------------------------------------------------------------
// authenticate against a fake key repository.

const validToken = "pk_live_valid-token-0000000000000000000000000000"
const revokedToken = "pk_live_revoked-token-00000000000000000000000000"
const at = Date.parse("2027-01-01T00:00:00Z")

const fakeKeys = Effect.gen(function* () {
  const record = (id: string, token: string, revokedAt: Option.Option<Date>) =>
    Effect.map(
      hashApiKeyToken(token),
      (hash) =>
        new ApiKeyRecord({
          id: ApiKeyId.make(id),
          account: AccountName.make("acme"),
          hash,
          createdAt: new Date(at - 86_400_000),
          revokedAt
        })
    )
  const records = [
    yield* record("key_0000000000000001", validToken, Option.none()),
    yield* record("key_0000000000000002", revokedToken, Option.some(new Date(at - 1000)))
  ]
  return Layer.succeed(
    ApiKeyRepository,
    ApiKeyRepository.of({
      insert: () => Effect.die("not used"),
      findByHash: (hash: ApiKeyHash) =>
        Effect.succeed(Option.fromNullishOr(records.find((r) => r.hash === hash))),
      list: Effect.succeed(records),
      revoke: () => Effect.die("not used")
    })
  )
})

const authenticateWithFakes = (header: string | undefined) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(at)
    return yield* authenticate(header).pipe(Effect.provide(yield* fakeKeys))
  })

describe("authenticate", () => {
  it.effect("returns the account of a valid key and the key itself", () =>
    Effect.gen(function* () {
      const caller = { account: "acme", keyId: "key_0000000000000001" }
      expect(yield* authenticateWithFakes(`Bearer ${validToken}`)).toStrictEqual(caller)
      expect(yield* authenticateWithFakes(`bearer ${validToken}`)).toStrictEqual(caller)
    })
  )

  it.effect("refuses an unknown well-formed key, saying a token was presented", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(authenticateWithFakes("Bearer pk_live_unknown"))
      expect(error).toStrictEqual(expect.objectContaining({ _tag: "Unauthenticated", tokenPresented: true }))
    })
  )

  it.effect("refuses a key that differs from a valid one by one character", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(authenticateWithFakes(`Bearer ${validToken.slice(0, -1)}1`))
      expect(error).toStrictEqual(expect.objectContaining({ _tag: "Unauthenticated", tokenPresented: true }))
    })
  )

  it.effect("refuses a missing or empty header, saying no token was presented", () =>
    Effect.gen(function* () {
      for (const header of [undefined, "", "   "]) {
        const error = yield* Effect.flip(authenticateWithFakes(header))
        expect(error).toStrictEqual(
          expect.objectContaining({ _tag: "Unauthenticated", tokenPresented: false })
        )
      }
    })
  )

  it.effect("refuses a malformed header without looking anything up", () =>
    Effect.gen(function* () {
      const untouchable = Layer.succeed(ApiKeyRepository, {
        insert: () => Effect.die("not used"),
        findByHash: () => Effect.die("must not be called for a malformed header"),
        list: Effect.die("not used"),
        revoke: () => Effect.die("not used")
      })
      for (const header of ["Bearer", "Bearer  ", "Bearer a b", `Bearer ${"x".repeat(513)}`, "Basic x"]) {
        const error = yield* Effect.flip(authenticate(header).pipe(Effect.provide(untouchable)))
        expect(error._tag).toBe("Unauthenticated")
      }
      const error = yield* Effect.flip(authenticate("Bearer a b").pipe(Effect.provide(untouchable)))
      expect(error).toStrictEqual(expect.objectContaining({ _tag: "Unauthenticated", tokenPresented: true }))
      // RFC 6750 §3.1: another scheme is no bearer credential at all, so no error code is earned.
      const basic = yield* Effect.flip(authenticate("Basic x").pipe(Effect.provide(untouchable)))
      expect(basic).toStrictEqual(expect.objectContaining({ _tag: "Unauthenticated", tokenPresented: false }))
    })
  )

  it.effect("refuses a revoked key", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(authenticateWithFakes(`Bearer ${revokedToken}`))
      expect(error).toStrictEqual(expect.objectContaining({ _tag: "Unauthenticated", tokenPresented: true }))
    })
  )

  it.effect("refuses a key from the very millisecond it is revoked", () =>
    Effect.gen(function* () {
      const hash = yield* hashApiKeyToken(validToken)
      const revokedNow = new ApiKeyRecord({
        id: ApiKeyId.make("key_0000000000000003"),
        account: AccountName.make("acme"),
        hash,
        createdAt: new Date(at - 1000),
        revokedAt: Option.some(new Date(at))
      })
      const layer = Layer.succeed(ApiKeyRepository, {
        insert: () => Effect.void,
        findByHash: () => Effect.succeed(Option.some(revokedNow)),
        list: Effect.succeed([revokedNow]),
        revoke: () => Effect.succeed(true)
      })
      yield* TestClock.setTime(at)
      const error = yield* Effect.flip(authenticate(`Bearer ${validToken}`).pipe(Effect.provide(layer)))
      expect(error._tag).toBe("Unauthenticated")
    })
  )

  it.effect("propagates storage failures as StorageError, not as Unauthenticated", () =>
    Effect.gen(function* () {
      const failing = Layer.succeed(ApiKeyRepository, {
        insert: () => Effect.void,
        findByHash: () => Effect.fail(new StorageError({ operation: "keys.findByHash", cause: "timeout" })),
        list: Effect.succeed([]),
        revoke: () => Effect.succeed(false)
      })
      const error = yield* Effect.flip(authenticate(`Bearer ${validToken}`).pipe(Effect.provide(failing)))
      expect(error._tag).toBe("StorageError")
    })
  )
})
