/**
 * The hand-written row mappers against the Schema decodings they replaced: for any row, valid or
 * not, both give the same value (a real instance of the same class, encoding identically) or both
 * refuse it; and a refusal reaches callers as the operation's `StorageError`, as before.
 */
import { describe, expect, it } from "@effect/vitest"
import { Pet, PetStatusValues, petNameMaxLength } from "@petstore/catalogue"
import { ApiKeyRecord, StorageError } from "@petstore/kernel"
import { Effect, Equal, Exit, Result, Schema } from "effect"
import fc from "fast-check"
import { idempotencyRecordFromRow } from "../src/catalogue/IdempotencyRow.js"
import { petFromRow } from "../src/catalogue/PetRow.js"
import { storageOperation } from "../src/internal/storageOperation.js"
import { apiKeyFromRow } from "../src/keys/ApiKeyRow.js"
import { ApiKeyRecordFromRow, IdempotencyRecordFromRow, PetFromRow } from "./rowSchemas.js"

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER)
const runs = { numRuns: 3_000 }

/** Mostly what the column may hold, often what it must not. */
const mostly = <A>(valid: fc.Arbitrary<A>, invalid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: invalid })

const other = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.object()
)

const int8Id = mostly(
  fc.bigInt({ min: 1n, max: maxSafe }),
  fc.oneof(
    fc.constantFrom(0n, -1n, maxSafe + 1n, 2n ** 63n - 1n, -maxSafe),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.integer({ min: 1 }),
    other
  )
)

const petName = mostly(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.string({ minLength: 1, maxLength: petNameMaxLength, unit: "binary" }),
    fc.constantFrom("x".repeat(200), "🐶".repeat(200), " leading", "e\u0301")
  ),
  fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "\t\n",
      "a\u0000b",
      "a\u007fb",
      "a\u0085b",
      "\ud800",
      "x\udc00",
      "x".repeat(201)
    ),
    fc.constantFrom("🐶".repeat(201)),
    fc.string({ maxLength: 210, unit: "binary" }),
    fc.string({ maxLength: 5, unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)) }),
    other
  )
)

const petStatus = mostly(
  fc.constantFrom(...PetStatusValues),
  fc.oneof(fc.constantFrom("Sold", "lost", ""), other)
)

const petRow = fc.record({ id: int8Id, name: petName, categoryId: int8Id, status: petStatus })

const hex = (length: number) =>
  fc.string({ minLength: length, maxLength: length, unit: fc.constantFrom(..."0123456789abcdef") })

const validDate = fc.date({ min: new Date(0), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
const date = mostly(
  validDate,
  fc.oneof(fc.constant(new Date(Number.NaN)), fc.constant("2026-03-01T12:00:00Z"), other)
)

const apiKeyRow = fc.record({
  id: mostly(
    hex(16).map((digits) => `key_${digits}`),
    fc.oneof(
      hex(15).map((digits) => `key_${digits}`),
      fc.constantFrom("key_0123456789ABCDEF", "kex_0123456789abcdef"),
      other
    )
  ),
  account: mostly(
    fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,62}$/),
    fc.oneof(fc.constantFrom("", "Alice", "-alice", "a".repeat(64), "al ice"), other)
  ),
  hash: mostly(hex(64), fc.oneof(hex(63), fc.constantFrom("A".repeat(64), "g".repeat(64)), other)),
  createdAt: date,
  revokedAt: mostly(
    fc.oneof(fc.constant(null), validDate),
    fc.oneof(fc.constant(new Date(Number.NaN)), other)
  )
})

const idempotencyRow = fc.record({
  fingerprint: mostly(fc.string(), other),
  createdAt: date,
  petId: mostly(fc.oneof(fc.constant(null), int8Id), other)
})

/**
 * The mapper and the schema agree on a row: the same value, or both refuse. Yields both values
 * when both read the row.
 */
const agree = <A>(mapped: Result.Result<A, unknown>, decoded: Exit.Exit<A, unknown>) => {
  expect(Result.isSuccess(mapped)).toBe(Exit.isSuccess(decoded))
  if (Result.isFailure(mapped) || Exit.isFailure(decoded)) return undefined
  expect(mapped.success).toStrictEqual(decoded.value)
  expect(Equal.equals(mapped.success, decoded.value)).toBe(true)
  return [mapped.success, decoded.value] as const
}

describe("row mappers agree with the schemas they replaced", () => {
  it("pets rows", () => {
    const decode = Schema.decodeUnknownExit(PetFromRow)
    const encode = Schema.encodeSync(Pet)
    let valid = 0
    fc.assert(
      fc.property(petRow, (row) => {
        const both = agree(petFromRow(row), decode(row))
        if (both !== undefined) {
          valid++
          expect(both[0]).toBeInstanceOf(Pet)
          expect(encode(both[0])).toEqual(encode(both[1]))
        }
      }),
      runs
    )
    // Both kinds of row were tried.
    expect(valid).toBeGreaterThan(runs.numRuns / 10)
    expect(valid).toBeLessThan(runs.numRuns)
  })

  it("api_keys rows", () => {
    const decode = Schema.decodeUnknownExit(ApiKeyRecordFromRow)
    const encode = Schema.encodeSync(ApiKeyRecord)
    let valid = 0
    fc.assert(
      fc.property(apiKeyRow, (row) => {
        const both = agree(apiKeyFromRow(row), decode(row))
        if (both !== undefined) {
          valid++
          expect(both[0]).toBeInstanceOf(ApiKeyRecord)
          expect(encode(both[0])).toEqual(encode(both[1]))
        }
      }),
      runs
    )
    expect(valid).toBeGreaterThan(runs.numRuns / 20)
    expect(valid).toBeLessThan(runs.numRuns)
  })

  it("idempotency_keys rows", () => {
    const decode = Schema.decodeUnknownExit(IdempotencyRecordFromRow)
    let valid = 0
    fc.assert(
      fc.property(idempotencyRow, (row) => {
        if (agree(idempotencyRecordFromRow(row), decode(row)) !== undefined) valid++
      }),
      runs
    )
    expect(valid).toBeGreaterThan(runs.numRuns / 10)
    expect(valid).toBeLessThan(runs.numRuns)
  })

  it.effect("a refused row is the operation's StorageError, as the schema's refusal was", () =>
    Effect.gen(function* () {
      const row = { id: 1n, name: "   ", categoryId: 1n, status: "sold" }
      const viaMapper = yield* Effect.flip(
        Effect.fromResult(petFromRow(row)).pipe(storageOperation("PetRepository.list"))
      )
      const viaSchema = yield* Effect.flip(
        Schema.decodeUnknownEffect(PetFromRow)(row).pipe(storageOperation("PetRepository.list"))
      )
      for (const error of [viaMapper, viaSchema]) {
        expect(error).toBeInstanceOf(StorageError)
        expect(error.operation).toBe("PetRepository.list")
      }
      expect(viaMapper.message).toBe("PetRepository.list failed: pets.name: must not be blank")
    })
  )
})
