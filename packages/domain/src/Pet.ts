/**
 * An animal of the catalogue, and the body that creates one.
 */
import { Schema } from "effect"
import { CategoryId, PetId } from "./PetId.js"
import { PetName } from "./PetName.js"
import { PetStatus } from "./PetStatus.js"

export class NewPet extends Schema.Class<NewPet>("NewPet")(
  {
    name: PetName,
    categoryId: CategoryId,
    status: Schema.optionalWith(PetStatus, { exact: true })
  },
  { description: "An animal to add. Unknown fields are ignored." }
) {}

export class Pet extends Schema.Class<Pet>("Pet")(
  {
    id: PetId,
    name: PetName,
    categoryId: CategoryId,
    status: PetStatus
  },
  { description: "An animal as stored in the catalogue." }
) {}

export const Pets = Schema.Array(Pet).annotations({ identifier: "Pets", description: "A page of animals." })
