/**
 * The catalogue's rules without any port: what a valid animal, page size and idempotency key are (with
 * the messages an adapter shows as `field: rule`), when `GET /pets/{petId}` stops working, and what
 * makes two creation requests the same.
 */

import {
  GetPetRemoved,
  getPetAvailabilityAt,
  getPetRemovedAt,
  IdempotencyKey,
  isPositiveSafeIntegerText,
  ListLimit,
  NewPet,
  newPetFingerprint,
  PetId,
  PetNotFound,
  petNameProblem
} from "@petstore/catalogue"
import { Result, Schema, SchemaIssue } from "effect"

/** The first broken rule of a decode, as the API words it: `field: rule`. */
const firstRule = (schema: Schema.Decoder<unknown>, input: unknown): string => {
  const result = Schema.decodeUnknownResult(schema)(input)
  if (Result.isSuccess(result)) return "valid"
  const [first] = SchemaIssue.makeFormatterStandardSchemaV1()(result.failure.issue).issues
  return `${first?.path?.join(".") || "value"}: ${first?.message}`
}

console.log(firstRule(NewPet, { name: "Rex", categoryId: 1 }))
console.log(firstRule(NewPet, { name: "  ", categoryId: 1 }))
console.log(firstRule(NewPet, { name: "Rex", categoryId: 2 ** 53 }))
console.log(firstRule(NewPet, { name: "Rex", categoryId: 1, status: "lost" }))
console.log(firstRule(ListLimit, 101), firstRule(IdempotencyKey, "not visible"))
console.log(petNameProblem("🐕".repeat(200)), petNameProblem("a\u0007b"))
console.log(
  isPositiveSafeIntegerText("42"),
  isPositiveSafeIntegerText("042"),
  isPositiveSafeIntegerText("1e2")
)

console.log(getPetAvailabilityAt(Date.parse("2030-12-04T23:59:59Z")), getPetRemovedAt.toISOString())
console.log(getPetAvailabilityAt(Date.parse("2030-12-05T00:00:00Z")))

// An omitted status and "available" are different bodies for an Idempotency-Key.
const decodePet = Schema.decodeUnknownSync(NewPet)
const omitted = decodePet({ name: "Rex", categoryId: 1 })
console.log(newPetFingerprint(omitted) === newPetFingerprint(decodePet({ ...omitted, status: "available" })))

// The use cases fail with these; adapters choose the answer (404, 410).
const failures: ReadonlyArray<PetNotFound | GetPetRemoved> = [
  new PetNotFound({ petId: PetId.make(7) }),
  new GetPetRemoved()
]
for (const failure of failures) console.log(failure._tag, failure instanceof PetNotFound ? failure.petId : "")

// Output:
// valid
// name: must not be blank
// categoryId: must be an integer from 1 to 9007199254740991
// status: must be one of available, pending, sold
// value: must be an integer from 1 to 100 value: must be 1 to 255 visible ASCII characters
// undefined must not contain control characters
// true false false
// deprecated 2030-12-05T00:00:00.000Z
// removed
// false
// PetNotFound 7
// GetPetRemoved
