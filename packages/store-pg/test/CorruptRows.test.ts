/**
 * A row the domain refuses, read back from the database (its constraints let some through, e.g. a
 * blank name or an account name with capitals): the read fails with the operation's `StorageError`
 * (a 503), never a defect (a 500) and never a value handed on. Likewise for the cached key lookup,
 * which keeps nothing it could not read. An event whose row the domain refuses is a `StorageError`
 * naming the column (the schema's path to the value), too.
 */
import { expect, layer } from "@effect/vitest"
import { ListLimit, PetId, PetRepository } from "@petstore/catalogue"
import { CustomDomainResource } from "@petstore/domains"
import { DomainEventRepository } from "@petstore/events"
import { ApiKeyRepository, StorageError } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { ContractFixtures } from "@petstore/testing"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { PgApiKeyRepository, PgDomainEventRepository, PgMigrations, PgPetRepository } from "../src/index.js"
import { CorruptRow } from "../src/internal/CorruptRow.js"
import { bothServers } from "./bothServers.js"
import { testCipher } from "./testCipher.js"

const refusal = (error: StorageError, operation: string, rule: string) => {
  expect(error).toBeInstanceOf(StorageError)
  expect(error.operation).toBe(operation)
  expect(error.cause).toBeInstanceOf(CorruptRow)
  expect(error.message).toBe(`${operation} failed: ${rule}`)
}

for (const [name, client] of bothServers) {
  const store = Layer.mergeAll(
    PgPetRepository.layer,
    PgApiKeyRepository.layerCached({ invalidation: "in-process" }),
    PgDomainEventRepository.layer
  ).pipe(Layer.provide(PgMigrations.layer), Layer.provideMerge(client), Layer.provide(testCipher))

  layer(store, { excludeTestServices: true, timeout: 120_000 })(`corrupt rows on ${name}`, (it) => {
    it.effect("an animal the domain refuses is a StorageError for findById and list", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const pets = yield* PetRepository
        const marker = yield* ContractFixtures.createMarker
        const [row] = yield* sql<{ readonly id: bigint }>`
          insert into pets (name, category_id, status) values ('   ', 1, 'sold') returning id`
        const found = yield* Effect.flip(pets.findById(PetId.make(Number(row?.id))))
        refusal(found, "PetRepository.findById", "pets.name: must not be blank")
        const listed = yield* Effect.flip(
          pets.list({ limit: ListLimit.make(10), status: Option.none(), after: Option.some(marker.id) })
        )
        refusal(listed, "PetRepository.list", "pets.name: must not be blank")
      })
    )

    it.effect("a key the domain refuses is a StorageError for findByHash, every time", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const keys = yield* ApiKeyRepository
        const record = yield* ContractFixtures.freshApiKey()
        yield* sql`
          insert into api_keys (id, account, hash, created_at)
          values (${record.id}, 'Not-An-Account', ${record.hash}, now())`
        for (let n = 0; n < 2; n++) {
          const error = yield* Effect.flip(keys.findByHash(record.hash))
          refusal(error, "ApiKeyRepository.findByHash", "api_keys.account: must be an account name")
        }
      })
    )

    it.effect(
      "an event the domain refuses is a StorageError naming its column, and purge still forgets it",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const events = yield* DomainEventRepository
          const project = yield* ContractFixtures.freshProject()
          const domain = yield* ContractFixtures.newDomainOf(project, yield* ContractFixtures.freshHostname())
          const data = Schema.encodeSync(CustomDomainResource)(domain)
          const occurredAt = new Date("1999-01-01T00:00:00.000Z")
          const insert = (row: unknown, projectId: string = project.id) => sql`
          insert into domain_events (project_id, hostname, type, occurred_at, data)
          values (${projectId}, ${domain.hostname}, 'domain.added', ${occurredAt}, ${JSON.stringify(row)}::jsonb)`
          const listed = events.listByProject({ projectId: project.id, after: Option.none(), limit: 10 })

          yield* insert(data)
          expect((yield* listed).events.map((event) => event.hostname)).toEqual([domain.hostname])
          for (const [corrupt, path] of [
            [{ ...data, status: "lost" }, '["data"]["status"]'],
            [{ ...data, createdAt: "yesterday" }, '["data"]["createdAt"]'],
            [{}, '["data"]["hostname"]']
          ] as const) {
            yield* insert(corrupt)
            const error = yield* Effect.flip(listed)
            expect(error).toBeInstanceOf(StorageError)
            expect(error.operation).toBe("DomainEventRepository.listByProject")
            // The row (the sound event is row 0), then the column and the path to the value in it.
            expect(error.message).toContain(`at [1]${path}`)
            yield* sql`delete from domain_events where project_id = ${project.id} and data <> ${JSON.stringify(data)}::jsonb`
          }
          // Another project's events read as ever beside a corrupt one; purge deletes without reading.
          yield* insert({})
          const other = ProjectId.make(`other-${project.id}`)
          yield* insert(data, other)
          const ofOther = yield* events.listByProject({ projectId: other, after: Option.none(), limit: 10 })
          expect(ofOther.events.map((event) => event.projectId)).toEqual([other])
          expect(yield* events.purge(new Date("1999-01-01T00:00:00.001Z"))).toBe(3)
          expect((yield* listed).events).toEqual([])
        })
    )
  })
}
