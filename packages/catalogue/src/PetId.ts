/**
 * Identifiers of animals and of their categories.
 */
import { Schema } from "effect"
import { PositiveSafeInteger } from "./SafeInteger.js"

export const PetId = PositiveSafeInteger.pipe(Schema.brand("PetId")).annotate({
  identifier: "PetId",
  description: "Unique identifier of an animal, assigned on creation (int64 limited to 2^53−1)."
})
export type PetId = typeof PetId.Type

export const CategoryId = PositiveSafeInteger.pipe(Schema.brand("CategoryId")).annotate({
  identifier: "CategoryId",
  description: "Identifier of the category the animal belongs to (int64 limited to 2^53−1)."
})
export type CategoryId = typeof CategoryId.Type
