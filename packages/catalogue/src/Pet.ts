/**
 * An animal of the catalogue, and the body that creates one.
 */
import { Schema } from "effect"
import { CategoryId, PetId } from "./PetId.js"
import { PetName } from "./PetName.js"
import { PetStatus } from "./PetStatus.js"

// Each class's struct carries its name and description too: JSON Schema (and so the OpenAPI
// document) names and describes a class by its encoded side, which would otherwise be `NewPetEncoded`.
const newPet = { identifier: "NewPet", description: "An animal to add. Unknown fields are ignored." }

export class NewPet extends Schema.Class<NewPet>(newPet.identifier)(
  Schema.Struct({
    name: PetName,
    categoryId: CategoryId,
    status: Schema.optionalKey(PetStatus)
  }).annotate(newPet),
  { description: newPet.description }
) {}

const pet = { identifier: "Pet", description: "An animal as stored in the catalogue." }

export class Pet extends Schema.Class<Pet>(pet.identifier)(
  Schema.Struct({
    id: PetId,
    name: PetName,
    categoryId: CategoryId,
    status: PetStatus
  }).annotate(pet),
  { description: pet.description }
) {}

export const Pets = Schema.Array(Pet).annotate({ identifier: "Pets", description: "A page of animals." })
