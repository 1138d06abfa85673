import { describe, expect, it } from "@effect/vitest"
import { rulesOf as issuesOf } from "@petstore/kernel/testing"
import { Arbitrary, Effect, Result, Schema } from "effect"
import fc from "fast-check"
import {
  CategoryId,
  isPositiveSafeIntegerText,
  maxSafeInteger,
  NewPet,
  Pet,
  PetId,
  PetName,
  petNameMaxLength,
  petNameProblem
} from "../src/index.js"

const decodeNewPet = (input: unknown): NewPet => {
  const result = Schema.decodeUnknownResult(NewPet)(input)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const idRule = `must be an integer from 1 to ${maxSafeInteger}`
const lengthRule = "must be 1 to 200 characters"
const blankRule = "must not be blank"
const controlRule = "must not contain control characters"
const unicodeRule = "must be valid Unicode (a lone surrogate is not a character)"
const statusRule = "must be one of available, pending, sold"

/** Independent statement of the name rule of the contract (§2), used as the oracle of the properties. */
const expectedNameProblem = (name: string): string | undefined => {
  const characters = Array.from(name)
  if (characters.length < 1 || characters.length > 200) return lengthRule
  if (name.trim() === "") return blankRule
  const isControl = (c: string) => {
    const code = c.codePointAt(0) ?? 0
    return code <= 0x1f || (code >= 0x7f && code <= 0x9f)
  }
  if (characters.some(isControl)) return controlRule
  // Array.from keeps a surrogate pair as one character: a one-unit surrogate is a lone one.
  const isLoneSurrogate = (c: string) =>
    c.length === 1 && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff
  if (characters.some(isLoneSurrogate)) return unicodeRule
  return undefined
}

/** Names mixing the characters the rules care about: blanks, controls, astral emoji, combining marks. */
const interestingCharacter = fc.oneof(
  fc.constantFrom(" ", "\t", "\n", "\r", "\u0000", "\u001f", "\u007f", "\u0085", "\u009f", "\u00a0"),
  fc.constantFrom("\u2028", "\u3000", "\ufeff", "\u200b", "🐶", "🐈", "é", "e\u0301", "名", "\ud800"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.string({ minLength: 1, maxLength: 1 })
)
const candidateName = fc.oneof(
  fc.string({ unit: interestingCharacter, maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ unit: "grapheme-ascii", minLength: 190, maxLength: 210 }),
  fc.string({ unit: fc.constantFrom("a", "🐶", " "), minLength: 195, maxLength: 205 })
)

describe("NewPet", () => {
  describe("valid bodies", () => {
    it("decodes a body with name, categoryId and status", () => {
      const pet = decodeNewPet({ name: "Rex", categoryId: 3, status: "pending" })
      expect(pet).toBeInstanceOf(NewPet)
      expect(pet.name).toBe("Rex")
      expect(pet.categoryId).toBe(3)
      expect(pet.status).toBe("pending")
    })

    it.each(["available", "pending", "sold"] as const)("accepts status %s", (status) => {
      expect(decodeNewPet({ name: "Rex", categoryId: 1, status }).status).toBe(status)
    })

    it("leaves an absent status absent (the default is applied on storage, not here)", () => {
      const pet = decodeNewPet({ name: "Rex", categoryId: 1 })
      expect("status" in pet).toBe(false)
      expect(pet.status).toBeUndefined()
      expect(Schema.encodeSync(NewPet)(pet)).toStrictEqual({ name: "Rex", categoryId: 1 })
    })

    it("accepts the largest safe integer as categoryId", () => {
      const body = JSON.parse(`{"name":"Rex","categoryId":9007199254740991}`)
      expect(decodeNewPet(body).categoryId).toBe(9007199254740991)
    })

    it("ignores unknown fields: they are not in the decoded value nor in its encoding", () => {
      const pet = decodeNewPet({ name: "Rex", categoryId: 2, owner: "mallory", id: 99, tags: ["x"] })
      expect(Object.keys(pet).sort()).toStrictEqual(["categoryId", "name"])
      expect(Schema.encodeSync(NewPet)(pet)).toStrictEqual({ name: "Rex", categoryId: 2 })
    })
  })

  describe("categoryId", () => {
    it("refuses 9007199254740993 as parsed from JSON (never rounded to a neighbour)", () => {
      const body = JSON.parse(`{"name":"Rex","categoryId":9007199254740993}`)
      expect(issuesOf(NewPet, body)).toStrictEqual([{ path: ["categoryId"], message: idRule }])
    })

    it.each([
      ["1.5", 1.5],
      ["the string 5", "5"],
      ["0", 0],
      ["-1", -1],
      ["2^53", 2 ** 53],
      ["NaN", Number.NaN],
      ["Infinity", Number.POSITIVE_INFINITY],
      ["null", null],
      ["true", true]
    ])("refuses %s with the plain rule", (_, categoryId) => {
      expect(issuesOf(NewPet, { name: "Rex", categoryId })).toStrictEqual([
        { path: ["categoryId"], message: idRule }
      ])
    })

    it("refuses a missing categoryId", () => {
      expect(issuesOf(NewPet, { name: "Rex" })).toStrictEqual([
        { path: ["categoryId"], message: "is missing" }
      ])
    })
  })

  describe("name", () => {
    it.each([
      ["empty", "", lengthRule],
      ["spaces only", "   ", blankRule],
      ["tabs and newlines only", "\t\n ", blankRule],
      ["201 characters", "a".repeat(201), lengthRule],
      ["201 emoji", "🐶".repeat(201), lengthRule],
      ["a NUL", "Rex\u0000", controlRule],
      ["a newline", "Rex\nRex", controlRule],
      ["a DEL", "Rex\u007f", controlRule],
      ["a C1 NEL", "Rex\u0085", controlRule],
      ["a C1 control at the end of the range", "Rex\u009f", controlRule],
      ["a lone high surrogate", "Rex\ud800", unicodeRule],
      ["a lone low surrogate", "\udc00Rex", unicodeRule],
      ["two surrogates in the wrong order", "\udc00\ud800", unicodeRule]
    ])("refuses %s", (_, name, message) => {
      expect(issuesOf(NewPet, { name, categoryId: 1 })).toStrictEqual([{ path: ["name"], message }])
    })

    it("refuses a name that is not a string", () => {
      expect(issuesOf(NewPet, { name: 5, categoryId: 1 })).toStrictEqual([
        { path: ["name"], message: "must be a string" }
      ])
    })

    it("refuses a missing name", () => {
      expect(issuesOf(NewPet, { categoryId: 1 })).toStrictEqual([{ path: ["name"], message: "is missing" }])
    })

    it("accepts exactly 200 characters", () => {
      const name = "a".repeat(petNameMaxLength)
      expect(decodeNewPet({ name, categoryId: 1 }).name).toBe(name)
    })

    it("counts an emoji as one character: 200 emoji are accepted (400 UTF-16 units)", () => {
      const name = "🐶".repeat(200)
      expect(name.length).toBe(400)
      expect(decodeNewPet({ name, categoryId: 1 }).name).toBe(name)
    })

    it("keeps unicode and surrounding spaces exactly as sent (no trimming, no normalisation)", () => {
      for (const name of [
        " Rex ",
        "Ünïcödé 名前 🐈",
        "e\u0301",
        "\u00e9",
        "Zoë\u00a0the\u200bcat",
        "ℌ𝔢𝔩𝔩𝔬"
      ]) {
        const pet = decodeNewPet({ name, categoryId: 1 })
        expect(pet.name).toBe(name)
        expect(Schema.encodeSync(NewPet)(pet).name).toBe(name)
      }
    })
  })

  describe("status", () => {
    it.each(["gone", "Available", "AVAILABLE", "", " available", null, 1])("refuses %j", (status) => {
      expect(issuesOf(NewPet, { name: "Rex", categoryId: 1, status })).toStrictEqual([
        { path: ["status"], message: statusRule }
      ])
    })
  })

  it("reports every broken rule with its field when asked for all errors", () => {
    const issues = issuesOf(NewPet, { name: " ", categoryId: 1.5, status: "lost" }, { errors: "all" })
    expect(issues).toHaveLength(3)
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: ["name"], message: blankRule },
        { path: ["categoryId"], message: idRule },
        { path: ["status"], message: statusRule }
      ])
    )
  })
})

describe("PetName properties", () => {
  it("agrees with the contract's rule on every string, and keeps accepted names unchanged", () => {
    fc.assert(
      fc.property(candidateName, (name) => {
        const expected = expectedNameProblem(name)
        expect(petNameProblem(name)).toBe(expected)
        const result = Schema.decodeUnknownResult(PetName)(name)
        if (expected === undefined) {
          expect(Result.getOrThrow(result)).toBe(name)
          expect(Schema.encodeSync(PetName)(Result.getOrThrow(result))).toBe(name)
        } else {
          expect(issuesOf(PetName, name)).toStrictEqual([{ path: [], message: expected }])
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("decodes any body whose name petNameProblem accepts, and round-trips it through JSON unchanged", () => {
    fc.assert(
      fc.property(
        candidateName.filter((name) => petNameProblem(name) === undefined),
        (name) => {
          const pet = decodeNewPet({ name, categoryId: 7 })
          const wire = JSON.parse(JSON.stringify(Schema.encodeSync(NewPet)(pet)))
          expect(wire).toStrictEqual({ name, categoryId: 7 })
          expect(decodeNewPet(wire).name).toBe(name)
        }
      ),
      { numRuns: 500 }
    )
  })
})

describe("PetId and CategoryId properties", () => {
  const positiveSafeInteger = fc.oneof(
    fc.integer({ min: 1, max: 1000 }),
    fc.maxSafeNat().filter((n) => n >= 1),
    fc.constantFrom(1, 2 ** 31, 2 ** 32 + 1, maxSafeInteger - 1, maxSafeInteger)
  )
  const refusedNumber = fc.oneof(
    fc.double({ noNaN: false }).filter((n) => !Number.isSafeInteger(n) || n < 1),
    fc.maxSafeInteger().filter((n) => n < 1),
    fc.double({ min: 2 ** 53, noNaN: true }),
    fc.double({ min: 1, max: 1e6, noInteger: true, noNaN: true }),
    fc.constantFrom(0, -0, -1, 0.5, 1.5, 2 ** 53, 2 ** 53 + 2, Number.NaN, Infinity, -Infinity)
  )

  it("accepts every safe integer from 1 up as PetId and CategoryId", () => {
    fc.assert(
      fc.property(positiveSafeInteger, (n) => {
        expect(Result.getOrThrow(Schema.decodeUnknownResult(PetId)(n))).toBe(n)
        expect(Result.getOrThrow(Schema.decodeUnknownResult(CategoryId)(n))).toBe(n)
      })
    )
  })

  it("refuses every non-integer, non-positive or unsafe number with the plain rule", () => {
    fc.assert(
      fc.property(refusedNumber, (n) => {
        expect(issuesOf(PetId, n)).toStrictEqual([{ path: [], message: idRule }])
        expect(issuesOf(CategoryId, n)).toStrictEqual([{ path: [], message: idRule }])
      })
    )
  })
})

describe("isPositiveSafeIntegerText", () => {
  it.each(["1", "42", "1000000", "9007199254740991"])("accepts %j", (text) => {
    expect(isPositiveSafeIntegerText(text)).toBe(true)
  })

  it.each(["", "0", "01", "-1", "+1", "1.0", "1e3", " 1", "1 ", "0x10", "١", "10000000000000000"])(
    "refuses %j",
    (text) => {
      expect(isPositiveSafeIntegerText(text)).toBe(false)
    }
  )

  it.each(["9007199254740992", "9007199254740993", "9999999999999999"])(
    "refuses %j, which is above 2^53−1",
    (text) => {
      expect(isPositiveSafeIntegerText(text)).toBe(false)
    }
  )
})

describe("Pet", () => {
  it.prop("encode then decode is the identity, also through JSON text", [Pet], ([pet]) => {
    const encoded = Schema.encodeSync(Pet)(pet)
    expect(Object.keys(encoded).sort()).toStrictEqual(["categoryId", "id", "name", "status"])
    const decoded = Schema.decodeUnknownSync(Pet)(JSON.parse(JSON.stringify(encoded)))
    expect(decoded).toBeInstanceOf(Pet)
    expect(decoded).toStrictEqual(pet)
  })

  it.effect("generates only valid pets (the arbitrary respects the rules)", () =>
    Effect.gen(function* () {
      const pets = yield* Arbitrary.sampleEffect(Arbitrary.schema(Pet), { count: 100 })
      expect(pets).toHaveLength(100)
      for (const pet of pets) {
        expect(pet).toBeInstanceOf(Pet)
        expect(petNameProblem(pet.name)).toBeUndefined()
        expect(Number.isSafeInteger(pet.id) && pet.id >= 1).toBe(true)
        expect(Number.isSafeInteger(pet.categoryId) && pet.categoryId >= 1).toBe(true)
      }
    })
  )

  it("requires a status on a stored pet", () => {
    expect(issuesOf(Pet, { id: 1, name: "Rex", categoryId: 1 })).toStrictEqual([
      { path: ["status"], message: "is missing" }
    ])
  })
})
