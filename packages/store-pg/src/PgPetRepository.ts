/**
 * PetRepository on PostgreSQL. Listing is keyset paging on the primary key (one extra row tells
 * whether a next page exists); creating with an idempotency scope inserts the animal and completes
 * the reservation in one transaction.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import {
  defaultPetStatus,
  type IdempotencyScope,
  Pet,
  PetId,
  type PetPage,
  PetRepository,
  PetStatus
} from "@petstore/domain"
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { Int8FromString } from "./internal/Int8FromString.js"
import { storageOperation } from "./internal/storageOperation.js"

/** A `pets` row as selected below, decoded into a `Pet` (every field checked again). */
const PetFromRow = Schema.Struct({
  id: Int8FromString,
  name: Schema.String,
  categoryId: Int8FromString,
  status: PetStatus
}).pipe(Schema.compose(Pet))

const InsertedPet = Schema.Struct({
  name: Schema.String,
  categoryId: Schema.Number,
  status: PetStatus
})

export const make: Effect.Effect<PetRepository["Type"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = SqlSchema.single({
      Request: InsertedPet,
      Result: PetFromRow,
      execute: (pet) => sql`
      insert into pets (name, category_id, status)
      values (${pet.name}, ${pet.categoryId}, ${pet.status})
      returning id, name, category_id as "categoryId", status`
    })

    const completeReservation = (scope: IdempotencyScope, petId: PetId) => sql`
    update idempotency_keys set pet_id = ${petId}
    where account = ${scope.account} and key = ${scope.key} and pet_id is null`

    const findById = SqlSchema.findOne({
      Request: PetId,
      Result: PetFromRow,
      execute: (id) => sql`
      select id, name, category_id as "categoryId", status from pets where id = ${id}`
    })

    const list = SqlSchema.findAll({
      Request: Schema.Struct({
        limit: Schema.Number,
        status: Schema.OptionFromSelf(PetStatus),
        after: Schema.OptionFromSelf(PetId)
      }),
      Result: PetFromRow,
      execute: ({ after, limit, status }) => {
        const conditions = [
          ...Option.toArray(Option.map(status, (value) => sql`status = ${value}`)),
          ...Option.toArray(Option.map(after, (id) => sql`id > ${id}`))
        ]
        return sql`
        select id, name, category_id as "categoryId", status from pets
        where ${sql.and(conditions)}
        order by id
        limit ${limit + 1}`
      }
    })

    return PetRepository.of({
      create: (pet, idempotency) => {
        const row = { name: pet.name, categoryId: pet.categoryId, status: pet.status ?? defaultPetStatus }
        return Option.match(idempotency, {
          onNone: () => insert(row),
          onSome: (scope) =>
            sql.withTransaction(Effect.tap(insert(row), (created) => completeReservation(scope, created.id)))
        }).pipe(storageOperation("PetRepository.create"))
      },
      findById: (id) => findById(id).pipe(storageOperation("PetRepository.findById")),
      list: (query) =>
        list(query).pipe(
          Effect.map((rows): PetPage => {
            const pets = rows.slice(0, query.limit)
            const nextAfter =
              rows.length > query.limit ? Option.map(Arr.last(pets), (last) => last.id) : Option.none()
            return { pets, nextAfter }
          }),
          storageOperation("PetRepository.list")
        )
    })
  }
)

export const layer: Layer.Layer<PetRepository, never, SqlClient.SqlClient> = Layer.effect(PetRepository, make)
