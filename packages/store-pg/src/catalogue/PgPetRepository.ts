/**
 * PetRepository on PostgreSQL. Listing is keyset paging on the primary key (one extra row tells
 * whether a next page exists); creating with an idempotency scope inserts the animal and completes
 * the reservation in one transaction.
 */
import {
  defaultPetStatus,
  type IdempotencyScope,
  type Pet,
  type PetId,
  type PetPage,
  PetRepository,
  type PetStatus
} from "@petstore/catalogue"
import { Cause, Effect, Layer, Option, Result } from "effect"
import { SqlClient } from "effect/sql"
import { type CorruptRow, everyRow } from "../internal/CorruptRow.js"
import { keysetPage } from "../internal/Paging.js"
import { storageOperation } from "../internal/storageOperation.js"
import { petFromRow } from "./PetRow.js"

export const make: Effect.Effect<PetRepository["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = (pet: {
      readonly name: string
      readonly categoryId: number
      readonly status: PetStatus
    }) =>
      Effect.flatMap(
        sql`
        insert into pets (name, category_id, status)
        values (${pet.name}, ${pet.categoryId}, ${pet.status})
        returning id, name, category_id as "categoryId", status`,
        ([row]): Effect.Effect<Pet, Cause.NoSuchElementError | CorruptRow> =>
          row === undefined ? Effect.fail(new Cause.NoSuchElementError()) : Effect.fromResult(petFromRow(row))
      )

    const completeReservation = (scope: IdempotencyScope, petId: PetId) => sql`
    update idempotency_keys set pet_id = ${petId}
    where account = ${scope.account} and key = ${scope.key} and pet_id is null`

    const findById = (id: PetId) =>
      Effect.flatMap(
        sql`select id, name, category_id as "categoryId", status from pets where id = ${id}`,
        ([row]) =>
          row === undefined ? Effect.succeedNone : Effect.fromResult(Result.map(petFromRow(row), Option.some))
      )

    const list = (limit: number, status: Option.Option<PetStatus>, after: Option.Option<PetId>) => {
      const conditions = [
        ...Option.toArray(Option.map(status, (value) => sql`status = ${value}`)),
        ...Option.toArray(Option.map(after, (id) => sql`id > ${id}`))
      ]
      return Effect.flatMap(
        sql`
        select id, name, category_id as "categoryId", status from pets
        where ${sql.and(conditions)}
        order by id
        limit ${limit + 1}`,
        (rows) => Effect.fromResult(everyRow(rows, petFromRow))
      )
    }

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
        list(query.limit, query.status, query.after).pipe(
          Effect.map((found): PetPage => {
            const { nextAfter, rows } = keysetPage(found, query.limit, (pet) => pet.id)
            return { pets: rows, nextAfter }
          }),
          storageOperation("PetRepository.list")
        )
    })
  }
)

export const layer: Layer.Layer<PetRepository, never, SqlClient.SqlClient> = Layer.effect(PetRepository, make)
