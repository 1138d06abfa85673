/**
 * @petstore/catalogue: the animal catalogue's schemas, rules, typed errors, use cases and ports,
 * with the Idempotency-Key rules of animal creation. Pure: no I/O and no adapter.
 */
export { GetPetRemoved, IdempotencyKeyReused, IdempotencyRequestInFlight, PetNotFound } from "./Errors.js"
export {
  currentGetPetAvailability,
  type GetPetAvailability,
  getPetAvailabilityAt,
  getPetDeprecatedAt,
  getPetRemovedAt
} from "./GetPetLifecycle.js"
export {
  decideIdempotency,
  type IdempotencyDecision,
  IdempotencyKey,
  type IdempotencyRecord,
  type IdempotencyScope,
  idempotencyInFlightLease,
  idempotencyRetention,
  maxRequestDeadline
} from "./Idempotency.js"
export { idempotencyExpiredUpTo, purgeExpiredIdempotencyKeys } from "./IdempotencyPurge.js"
export { IdempotencyRepository } from "./IdempotencyRepository.js"
export { defaultListLimit, ListLimit, listLimitDefault, listLimitMax, listLimitMin } from "./ListLimit.js"
export { NewPet, Pet, Pets } from "./Pet.js"
export { type CreatedPet, createPet, getPet, listPets, newPetFingerprint } from "./PetCatalogue.js"
export { CategoryId, PetId } from "./PetId.js"
export { characterLength, PetName, petNameMaxLength, petNameProblem } from "./PetName.js"
export type { PetPage, PetQuery } from "./PetQuery.js"
export { PetRepository } from "./PetRepository.js"
export { defaultPetStatus, PetStatus, PetStatusValues } from "./PetStatus.js"
export { isPositiveSafeIntegerText, maxSafeInteger, PositiveSafeInteger } from "./SafeInteger.js"
