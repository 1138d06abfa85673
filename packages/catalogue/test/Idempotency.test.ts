import { describe, expect, it } from "@effect/vitest"
import { AccountName, ApiKeyId, type Caller, StorageError } from "@petstore/kernel"
import { issuesOf } from "@petstore/kernel/testing"
import { Arbitrary, Deferred, Effect, Fiber, Layer, Option, Ref, Result, Schema } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import {
  createPet,
  decideIdempotency,
  defaultPetStatus,
  type IdempotencyDecision,
  IdempotencyKey,
  IdempotencyKeyReused,
  type IdempotencyRecord,
  IdempotencyRepository,
  IdempotencyRequestInFlight,
  type IdempotencyScope,
  NewPet,
  newPetFingerprint,
  Pet,
  PetId,
  PetRepository,
  PetStatus
} from "../src/index.js"

const hour = 3_600_000
const day = 24 * hour
const now = Date.parse("2027-03-01T12:00:00Z")
const petId = PetId.make(41)

const completed = (fingerprint: string, ageMillis: number): Option.Option<IdempotencyRecord> =>
  Option.some({ fingerprint, createdAt: new Date(now - ageMillis), petId: Option.some(petId) })
const inFlight = (fingerprint: string, ageMillis: number): Option.Option<IdempotencyRecord> =>
  Option.some({ fingerprint, createdAt: new Date(now - ageMillis), petId: Option.none() })

describe("decideIdempotency", () => {
  const table: ReadonlyArray<[string, Option.Option<IdempotencyRecord>, string, string]> = [
    ["nothing stored", Option.none(), "A", "Proceed"],
    ["completed, same body, just now", completed("A", 0), "A", "Replay"],
    ["completed, same body, 24h minus 1ms ago", completed("A", day - 1), "A", "Replay"],
    ["completed, different body", completed("A", 0), "B", "KeyReused"],
    ["completed, different body, 24h minus 1ms ago", completed("A", day - 1), "B", "KeyReused"],
    [
      "completed, same body, exactly 24h ago (no longer within 24 hours)",
      completed("A", day),
      "A",
      "Proceed"
    ],
    ["completed, same body, more than 24h ago", completed("A", day + 1), "A", "Proceed"],
    ["completed, different body, more than 24h ago", completed("A", 2 * day), "B", "Proceed"],
    ["in flight, same body", inFlight("A", 0), "A", "InFlight"],
    ["in flight, same body, 59.999s ago", inFlight("A", 59_999), "A", "InFlight"],
    ["in flight, different body", inFlight("A", 0), "B", "KeyReused"],
    ["in flight, same body, exactly 60s ago (lease expired)", inFlight("A", 60_000), "A", "Proceed"],
    ["in flight, same body, older than 60s", inFlight("A", 61_000), "A", "Proceed"],
    ["in flight, different body, older than 60s", inFlight("A", hour), "B", "Proceed"]
  ]

  it.each(table)("%s → %s", (_, existing, fingerprint, expected) => {
    const decision = decideIdempotency(existing, fingerprint, now)
    expect(decision._tag).toBe(expected)
  })

  it("replays the id of the pet the original request created", () => {
    expect(decideIdempotency(completed("A", hour), "A", now)).toStrictEqual({ _tag: "Replay", petId })
  })

  it("never replays for a different fingerprint, and always proceeds when nothing is stored", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: 0, max: 3 * day }),
        fc.boolean(),
        (stored, presented, age, done) => {
          const record = done ? completed(stored, age) : inFlight(stored, age)
          const decision = decideIdempotency(record, presented, now)
          if (stored !== presented) expect(["KeyReused", "Proceed"]).toContain(decision._tag)
          expect(decideIdempotency(Option.none(), presented, now)._tag).toBe("Proceed")
        }
      )
    )
  })
})

describe("IdempotencyKey", () => {
  const decode = Schema.decodeUnknownResult(IdempotencyKey)
  it.each(["a", "8e03978e-40d5-43e8-bc93-6894a57f9324", "!~", "x".repeat(255)])("accepts %j", (key) => {
    expect(Result.getOrThrow(decode(key))).toBe(key)
  })
  it.each(["", " ", "a b", "x".repeat(256), "é", "tab\there", "nl\n"])("refuses %j", (key) => {
    expect(issuesOf(IdempotencyKey, key).map((i) => i.message)).toStrictEqual([
      "must be 1 to 255 visible ASCII characters"
    ])
  })
})

describe("newPetFingerprint", () => {
  const decode = Schema.decodeUnknownSync(NewPet)

  it("is equal for the same body, whatever the field order and unknown fields", () => {
    const a = decode({ name: "Rex", categoryId: 1, status: "sold" })
    const b = decode({ status: "sold", extra: true, categoryId: 1, name: "Rex" })
    expect(newPetFingerprint(a)).toBe(newPetFingerprint(b))
  })

  it('differs when status is absent rather than "available"', () => {
    const absent = decode({ name: "Rex", categoryId: 1 })
    const explicit = decode({ name: "Rex", categoryId: 1, status: "available" })
    expect(newPetFingerprint(absent)).not.toBe(newPetFingerprint(explicit))
  })

  it("differs for a different name, category or status", () => {
    const base = newPetFingerprint(decode({ name: "Rex", categoryId: 1, status: "sold" }))
    expect(newPetFingerprint(decode({ name: "Rex ", categoryId: 1, status: "sold" }))).not.toBe(base)
    expect(newPetFingerprint(decode({ name: "Rex", categoryId: 2, status: "sold" }))).not.toBe(base)
    expect(newPetFingerprint(decode({ name: "Rex", categoryId: 1, status: "pending" }))).not.toBe(base)
  })

  // A body, and either itself, another body, itself with some status, or itself without status.
  const newPet = Arbitrary.schema(NewPet)
  const variant = Arbitrary.flatMap(newPet, (a) =>
    Arbitrary.map(
      Arbitrary.all([
        Arbitrary.schema(Schema.Literals(["itself", "another", "with status", "without status"])),
        newPet,
        Arbitrary.schema(PetStatus)
      ]),
      ([kind, other, status]) => {
        switch (kind) {
          case "itself":
            return [a, a] as const
          case "another":
            return [a, other] as const
          case "with status":
            return [a, new NewPet({ ...a, status })] as const
          case "without status":
            return [a, new NewPet({ name: a.name, categoryId: a.categoryId })] as const
        }
      }
    )
  )

  it.prop(
    "is equal exactly when the stored fields are equal",
    [variant],
    ([[a, b]]) => {
      const same = a.name === b.name && a.categoryId === b.categoryId && a.status === b.status
      expect(newPetFingerprint(a) === newPetFingerprint(b)).toBe(same)
    },
    { arbitrary: { runs: 500 } }
  )
})

// ---------------------------------------------------------------------------------------------------
// createPet against in-memory fakes of both ports.

interface FakeState {
  readonly pets: ReadonlyMap<number, Pet>
  readonly nextId: number
  readonly keys: ReadonlyMap<string, IdempotencyRecord>
  readonly failNextCreate: boolean
  readonly creates: number
  /** How many of the next releases fail (storage unreachable). */
  readonly failingReleases: number
  readonly releaseAttempts: number
}

interface Gate {
  readonly entered: Deferred.Deferred<void>
  readonly open: Deferred.Deferred<void>
}

const scopeKey = (scope: IdempotencyScope) => `${scope.account}\u0000${scope.key}`

const makeFake = Effect.gen(function* () {
  const state = yield* Ref.make<FakeState>({
    pets: new Map(),
    nextId: 1,
    keys: new Map(),
    failNextCreate: false,
    creates: 0,
    failingReleases: 0,
    releaseAttempts: 0
  })
  const gate = yield* Ref.make<Option.Option<Gate>>(Option.none())

  const pets = PetRepository.of({
    create: (pet, idempotency) =>
      Effect.gen(function* () {
        const waiting = yield* Ref.get(gate)
        if (Option.isSome(waiting)) {
          yield* Deferred.succeed(waiting.value.entered, undefined)
          yield* Deferred.await(waiting.value.open)
        }
        const fail = yield* Ref.modify(state, (s) => [s.failNextCreate, { ...s, failNextCreate: false }])
        if (fail) return yield* new StorageError({ operation: "pets.create", cause: new Error("disk full") })
        return yield* Ref.modify(state, (s) => {
          const created = Pet.make({
            id: PetId.make(s.nextId),
            name: pet.name,
            categoryId: pet.categoryId,
            status: pet.status ?? defaultPetStatus
          })
          const keys = new Map(s.keys)
          if (Option.isSome(idempotency)) {
            const k = scopeKey(idempotency.value)
            const reservation = keys.get(k)
            if (reservation === undefined)
              throw new Error("create completed a reservation that does not exist")
            keys.set(k, { ...reservation, petId: Option.some(created.id) })
          }
          const stored = new Map(s.pets).set(created.id, created)
          return [created, { ...s, pets: stored, nextId: s.nextId + 1, keys, creates: s.creates + 1 }]
        })
      }),
    findById: (id) => Ref.get(state).pipe(Effect.map((s) => Option.fromNullishOr(s.pets.get(id)))),
    list: () => Effect.die("not used by createPet")
  })

  const keys = IdempotencyRepository.of({
    reserve: (scope, fingerprint, at) =>
      Ref.modify(state, (s): [IdempotencyDecision, FakeState] => {
        const k = scopeKey(scope)
        const decision = decideIdempotency(Option.fromNullishOr(s.keys.get(k)), fingerprint, at.getTime())
        if (decision._tag !== "Proceed") return [decision, s]
        const reservation: IdempotencyRecord = { fingerprint, createdAt: at, petId: Option.none() }
        return [decision, { ...s, keys: new Map(s.keys).set(k, reservation) }]
      }),
    release: (scope, reservedAt) =>
      Effect.flatMap(
        Ref.modify(state, (s): [Option.Option<boolean>, FakeState] => {
          const attempted = { ...s, releaseAttempts: s.releaseAttempts + 1 }
          if (s.failingReleases > 0)
            return [Option.none(), { ...attempted, failingReleases: s.failingReleases - 1 }]
          const k = scopeKey(scope)
          const record = s.keys.get(k)
          if (record === undefined || Option.isSome(record.petId)) return [Option.some(false), attempted]
          if (record.createdAt.getTime() !== reservedAt.getTime()) return [Option.some(false), attempted]
          const remaining = new Map(s.keys)
          remaining.delete(k)
          return [Option.some(true), { ...attempted, keys: remaining }]
        }),
        (released) =>
          Option.match(released, {
            onNone: () =>
              Effect.fail(new StorageError({ operation: "keys.release", cause: new Error("unreachable") })),
            onSome: Effect.succeed
          })
      ),
    purge: () => Effect.die("not used by createPet")
  })

  const holdCreates = Effect.gen(function* () {
    const held: Gate = { entered: yield* Deferred.make<void>(), open: yield* Deferred.make<void>() }
    yield* Ref.set(gate, Option.some(held))
    return held
  })
  const openGate = (held: Gate) =>
    Ref.set(gate, Option.none()).pipe(Effect.andThen(Deferred.succeed(held.open, undefined)))

  return {
    state,
    holdCreates,
    openGate,
    layer: Layer.merge(Layer.succeed(PetRepository, pets), Layer.succeed(IdempotencyRepository, keys))
  }
})

const acme: Caller = { account: AccountName.make("acme"), keyId: ApiKeyId.make("key_00000000000000ac") }
const globex: Caller = { account: AccountName.make("globex"), keyId: ApiKeyId.make("key_0000000000000b0b") }
const key = Option.some(IdempotencyKey.make("8e03978e-40d5-43e8-bc93-6894a57f9324"))
const rex = Schema.decodeUnknownSync(NewPet)({ name: "Rex", categoryId: 1 })
const tom = Schema.decodeUnknownSync(NewPet)({ name: "Tom", categoryId: 2, status: "pending" })

describe("createPet", () => {
  it.effect("without a key, creates the pet with the default status", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      const result = yield* createPet(acme, rex, Option.none()).pipe(Effect.provide(fake.layer))
      expect(result.replayed).toBe(false)
      expect(result.pet).toStrictEqual(
        Pet.make({ id: PetId.make(1), name: rex.name, categoryId: rex.categoryId, status: "available" })
      )
      const s = yield* Ref.get(fake.state)
      expect(s.creates).toBe(1)
      expect(s.keys.size).toBe(0)
    })
  )

  it.effect("without a key, the same body twice creates two pets", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      const first = yield* createPet(acme, rex, Option.none()).pipe(Effect.provide(fake.layer))
      const second = yield* createPet(acme, rex, Option.none()).pipe(Effect.provide(fake.layer))
      expect(first.pet.id).not.toBe(second.pet.id)
      expect(second.replayed).toBe(false)
      expect((yield* Ref.get(fake.state)).creates).toBe(2)
    })
  )

  it.effect("with a key, the same body again replays the same pet and creates nothing", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const fake = yield* makeFake
      const first = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      expect(first.replayed).toBe(false)
      yield* TestClock.adjust("23 hours")
      const again = Schema.decodeUnknownSync(NewPet)({ categoryId: 1, name: "Rex", unknown: "ignored" })
      const second = yield* createPet(acme, again, key).pipe(Effect.provide(fake.layer))
      expect(second).toStrictEqual({ pet: first.pet, replayed: true })
      expect((yield* Ref.get(fake.state)).creates).toBe(1)
    })
  )

  it.effect("with a key, a different body fails with IdempotencyKeyReused and creates nothing", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      const error = yield* Effect.flip(createPet(acme, tom, key).pipe(Effect.provide(fake.layer)))
      expect(error).toBeInstanceOf(IdempotencyKeyReused)
      const explicit = new NewPet({ name: rex.name, categoryId: rex.categoryId, status: "available" })
      const error2 = yield* Effect.flip(createPet(acme, explicit, key).pipe(Effect.provide(fake.layer)))
      expect(error2._tag).toBe("IdempotencyKeyReused")
      expect((yield* Ref.get(fake.state)).creates).toBe(1)
    })
  )

  it.effect("a retry while the first request runs fails with IdempotencyRequestInFlight", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      const held = yield* fake.holdCreates
      const first = yield* Effect.forkChild(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      yield* Deferred.await(held.entered)

      const retry = yield* Effect.flip(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      expect(retry).toBeInstanceOf(IdempotencyRequestInFlight)
      const other = yield* Effect.flip(createPet(acme, tom, key).pipe(Effect.provide(fake.layer)))
      expect(other).toBeInstanceOf(IdempotencyKeyReused)

      yield* fake.openGate(held)
      const created = yield* Fiber.join(first)
      expect(created.replayed).toBe(false)
      const replay = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      expect(replay).toStrictEqual({ pet: created.pet, replayed: true })
      expect((yield* Ref.get(fake.state)).creates).toBe(1)
    })
  )

  it.effect("an abandoned reservation blocks retries for 60 seconds only", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const fake = yield* makeFake
      const scope: IdempotencyScope = { account: acme.account, key: Option.getOrThrow(key) }
      const reserve = Effect.flatMap(IdempotencyRepository, (keys) =>
        keys.reserve(scope, newPetFingerprint(rex), new Date(now))
      )
      expect((yield* reserve.pipe(Effect.provide(fake.layer)))._tag).toBe("Proceed")
      yield* TestClock.adjust("59 seconds")
      const blocked = yield* Effect.flip(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      expect(blocked._tag).toBe("IdempotencyRequestInFlight")
      yield* TestClock.adjust("1 seconds")
      const result = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      expect(result.replayed).toBe(false)
      expect((yield* Ref.get(fake.state)).creates).toBe(1)
    })
  )

  it.effect("replays for 24 hours only, then the key starts afresh", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const fake = yield* makeFake
      const first = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      yield* TestClock.adjust(day - 1)
      expect((yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))).replayed).toBe(true)
      yield* TestClock.adjust(1)
      const later = yield* createPet(acme, tom, key).pipe(Effect.provide(fake.layer))
      expect(later.replayed).toBe(false)
      expect(later.pet.id).not.toBe(first.pet.id)
      const replay = yield* createPet(acme, tom, key).pipe(Effect.provide(fake.layer))
      expect(replay).toStrictEqual({ pet: later.pet, replayed: true })
    })
  )

  it.effect("scopes keys to the caller's account", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      const mine = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      const theirs = yield* createPet(globex, tom, key).pipe(Effect.provide(fake.layer))
      expect(theirs.replayed).toBe(false)
      expect(theirs.pet.id).not.toBe(mine.pet.id)
      expect((yield* Ref.get(fake.state)).keys.size).toBe(2)
    })
  )

  it.effect("a failing create releases the reservation, so that a retry proceeds", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      yield* Ref.update(fake.state, (s) => ({ ...s, failNextCreate: true }))
      const error = yield* Effect.flip(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      expect(error).toBeInstanceOf(StorageError)
      expect((yield* Ref.get(fake.state)).keys.size).toBe(0)
      const retry = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      expect(retry.replayed).toBe(false)
      expect((yield* Ref.get(fake.state)).creates).toBe(1)
    })
  )

  it.effect("when storage is down for the release too, it is retried in the background until it lands", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const fake = yield* makeFake
      yield* Ref.update(fake.state, (s) => ({ ...s, failNextCreate: true, failingReleases: 3 }))
      const error = yield* Effect.flip(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      expect(error).toBeInstanceOf(StorageError)
      const blocked = yield* Effect.flip(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      expect(blocked).toBeInstanceOf(IdempotencyRequestInFlight)

      // The inline attempt, the background's first and its retry a second later fail; the next lands.
      yield* TestClock.adjust("1 seconds")
      expect((yield* Ref.get(fake.state)).keys.size).toBe(1)
      yield* TestClock.adjust("1 seconds")
      expect(yield* Ref.get(fake.state)).toMatchObject({ releaseAttempts: 4, failingReleases: 0 })
      expect((yield* Ref.get(fake.state)).keys.size).toBe(0)
      const retry = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      expect(retry.replayed).toBe(false)
      expect((yield* Ref.get(fake.state)).creates).toBe(1)
    })
  )

  it.effect("the background release stops once the reservation's lease is over", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(now)
      const fake = yield* makeFake
      yield* Ref.update(fake.state, (s) => ({ ...s, failNextCreate: true, failingReleases: 1_000 }))
      yield* Effect.flip(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      yield* TestClock.adjust("61 seconds")
      const attempts = (yield* Ref.get(fake.state)).releaseAttempts
      expect(attempts).toBeGreaterThan(50)
      yield* TestClock.adjust("10 minutes")
      expect((yield* Ref.get(fake.state)).releaseAttempts).toBe(attempts)
      // By then the lease itself lets a retry through.
      yield* Ref.update(fake.state, (s) => ({ ...s, failingReleases: 0 }))
      expect((yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))).replayed).toBe(false)
    })
  )

  it.effect("an interrupted create releases the reservation too", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      const held = yield* fake.holdCreates
      const first = yield* Effect.forkChild(createPet(acme, rex, key).pipe(Effect.provide(fake.layer)))
      yield* Deferred.await(held.entered)
      yield* Fiber.interrupt(first)
      expect((yield* Ref.get(fake.state)).keys.size).toBe(0)
      yield* fake.openGate(held)
      const retry = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      expect(retry.replayed).toBe(false)
    })
  )

  it.effect("replaying a pet that storage lost creates it afresh instead of failing", () =>
    Effect.gen(function* () {
      const fake = yield* makeFake
      const first = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      yield* Ref.update(fake.state, (s) => ({ ...s, pets: new Map() }))
      const second = yield* createPet(acme, rex, key).pipe(Effect.provide(fake.layer))
      expect(second.replayed).toBe(false)
      expect(second.pet.id).not.toBe(first.pet.id)
    })
  )
})
