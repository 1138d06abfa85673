/**
 * Port: where animals are kept.
 */

import type { StorageError } from "@petstore/kernel"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { IdempotencyScope } from "./Idempotency.js"
import type { NewPet, Pet } from "./Pet.js"
import type { PetId } from "./PetId.js"
import type { PetPage, PetQuery } from "./PetQuery.js"

export class PetRepository extends Context.Service<
  PetRepository,
  {
    /**
     * Stores a new animal (status defaulted) and assigns its id. With an idempotency scope, the
     * reservation under that scope is completed with the new id atomically with the insert.
     */
    readonly create: (
      pet: NewPet,
      idempotency: Option.Option<IdempotencyScope>
    ) => Effect.Effect<Pet, StorageError>
    readonly findById: (id: PetId) => Effect.Effect<Option.Option<Pet>, StorageError>
    /** Animals in ascending id order, at most `limit`, after the cursor, optionally of one status. */
    readonly list: (query: PetQuery) => Effect.Effect<PetPage, StorageError>
  }
>()("@petstore/catalogue/PetRepository") {}
