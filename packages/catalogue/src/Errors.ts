/**
 * The typed failures of the animal catalogue. Adapters turn them into HTTP answers; nothing here
 * knows about status codes.
 */
import { Schema } from "effect"
import { PetId } from "./PetId.js"

export class PetNotFound extends Schema.TaggedError<PetNotFound>()("PetNotFound", { petId: PetId }) {}

/** `GET /pets/{petId}` after its removal date. */
export class GetPetRemoved extends Schema.TaggedError<GetPetRemoved>()("GetPetRemoved", {}) {}

export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  {}
) {}

export class IdempotencyRequestInFlight extends Schema.TaggedError<IdempotencyRequestInFlight>()(
  "IdempotencyRequestInFlight",
  {}
) {}
