/**
 * DomainConfigRepository on PostgreSQL: a project's domain config (its primary domain and
 * redirects) is a jsonb column of its `projects` row, null until the owner saves one; a project not
 * stored has none.
 */
import { ProjectId } from "@petstore/projects"
import { DomainConfig, DomainConfigRepository } from "@petstore/serving"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { storageOperation } from "../internal/storageOperation.js"

const ConfigRow = Schema.Struct({ config: Schema.NullOr(DomainConfig) })

export const make: Effect.Effect<DomainConfigRepository["Service"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const findConfig = SqlSchema.findOneOption({
      Request: ProjectId,
      Result: ConfigRow,
      execute: (id) => sql`select domain_config as "config" from projects where id = ${id}`
    })

    const saveConfig = SqlSchema.void({
      Request: Schema.Struct({ id: ProjectId, config: Schema.fromJsonString(DomainConfig) }),
      execute: ({ config, id }) => sql`update projects set domain_config = ${config}::jsonb where id = ${id}`
    })

    return DomainConfigRepository.of({
      find: (id) =>
        findConfig(id).pipe(
          Effect.map(Option.flatMap((row) => Option.fromNullishOr(row.config))),
          storageOperation("DomainConfigRepository.find")
        ),
      save: (id, config) => saveConfig({ id, config }).pipe(storageOperation("DomainConfigRepository.save"))
    })
  }
)

export const layer: Layer.Layer<DomainConfigRepository, never, SqlClient.SqlClient> = Layer.effect(
  DomainConfigRepository,
  make
)
