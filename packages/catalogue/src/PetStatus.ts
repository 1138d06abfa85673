/**
 * The availability of an animal in the catalogue.
 */
import { Schema } from "effect"

export const PetStatusValues = ["available", "pending", "sold"] as const

export const PetStatus = Schema.Literals(PetStatusValues).annotate({
  identifier: "PetStatus",
  description: "Availability of the animal.",
  message: "must be one of available, pending, sold"
})
export type PetStatus = typeof PetStatus.Type

/** The status an animal gets when it is created without one. */
export const defaultPetStatus: PetStatus = "available"
