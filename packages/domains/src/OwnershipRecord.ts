/**
 * The TXT record that proves an account owns a hostname (or a claimed apex): `_petstore-challenge.<name>`
 * with the value `petstore-verification=<token>`, the token being the account's for that name (128
 * random bits, made once and kept). Every domain carries its record; whether verification needs it now
 * is the ownership rules' to say.
 */
import { Schema } from "effect"
import { Hex } from "effect/encoding"

/** 128 random bits as 32 lower-case hex digits: per account and name, stable for that pair. */
export const OwnershipToken = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[0-9a-f]{32}$/, { message: "must be 32 lower-case hex digits" })),
  Schema.brand("OwnershipToken"),
  Schema.annotate({ identifier: "OwnershipToken" })
)
export type OwnershipToken = typeof OwnershipToken.Type

/** 16 bytes: the 128 random bits of a token. */
export const ownershipTokenBytes = 16

/** The token spelt from `randomBytes` (16 of a store's cryptographically secure bytes), as every store spells it. */
export const ownershipTokenFrom = (randomBytes: Uint8Array): OwnershipToken =>
  OwnershipToken.make(Hex.encode(randomBytes))

/** The name the TXT record lives at: `_petstore-challenge.<name>`. */
export const ownershipRecordName = (name: string): string => `_petstore-challenge.${name}`

/** The TXT record's value: `petstore-verification=<token>`. */
export const ownershipRecordValue = (token: OwnershipToken): string => `petstore-verification=${token}`

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class OwnershipRecord extends Schema.Class<OwnershipRecord>("OwnershipRecord")(
  Schema.Struct({
    type: Schema.Literal("TXT"),
    name: Schema.String,
    value: Schema.String,
    /** Whether verification needs the record now (the hostname is contested). */
    required: Schema.Boolean
  }).annotate({ identifier: "OwnershipRecord" })
) {}

export const ownershipRecord = (name: string, token: OwnershipToken, required: boolean): OwnershipRecord =>
  new OwnershipRecord({
    type: "TXT",
    name: ownershipRecordName(name),
    value: ownershipRecordValue(token),
    required
  })
