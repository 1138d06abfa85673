/**
 * The Schema decodings the hand-written row mappers replaced (as they were in the store until the
 * mappers came), kept only as the reference the mappers are tested against: for any row, a mapper
 * and its schema must agree, giving the same value or both refusing it.
 */
import { Pet, PetId, PetStatus } from "@petstore/catalogue"
import { ApiKeyRecord } from "@petstore/kernel"
import { Schema, SchemaTransformation } from "effect"

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER)

const SafeBigInt = Schema.BigInt.check(
  Schema.makeFilter((n: bigint) => n >= -maxSafe && n <= maxSafe, {
    message: "bigint beyond the safe integer range"
  })
)

export const Int8FromBigInt = SafeBigInt.pipe(
  Schema.decodeTo(
    Schema.Int,
    SchemaTransformation.transform({ decode: (n: bigint) => Number(n), encode: (n: number) => BigInt(n) })
  )
)

export const PetFromRow = Schema.Struct({
  id: Int8FromBigInt,
  name: Schema.String,
  categoryId: Int8FromBigInt,
  status: PetStatus
}).pipe(Schema.decodeTo(Pet))

export const ApiKeyRecordFromRow = Schema.Struct({
  id: Schema.String,
  account: Schema.String,
  hash: Schema.String,
  createdAt: Schema.Date,
  revokedAt: Schema.OptionFromNullOr(Schema.Date)
}).pipe(Schema.decodeTo(ApiKeyRecord))

export const IdempotencyRecordFromRow = Schema.Struct({
  fingerprint: Schema.String,
  createdAt: Schema.Date,
  petId: Schema.OptionFromNullOr(Int8FromBigInt.pipe(Schema.decodeTo(PetId)))
})
