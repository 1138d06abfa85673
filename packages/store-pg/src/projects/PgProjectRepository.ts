/**
 * ProjectRepository on PostgreSQL. The id is the primary key of `projects`, so a second project with
 * an id already taken (by any account) is refused by the database itself. (The row's domain config
 * is `serving/PgDomainConfigRepository`'s.)
 *
 * An insert counts the account's projects and adds its own in one transaction under an advisory lock
 * of the account's, taken first: two creations at the limit are counted one after the other, never
 * both from the same count. Ids sort bytewise (`collate "C"`), the order of the index that serves
 * both the count and the pages.
 */

import { type LimitReached, type LimitValues, limitReached } from "@petstore/kernel"
import { DeployStatus, Plan, Project, ProjectId, ProjectIdTaken, ProjectRepository } from "@petstore/projects"
import { Effect, Layer, Option, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { inLockedTransaction, LockSpace } from "../internal/AdvisoryLocks.js"
import { dateFromIso, isoText } from "../internal/Instants.js"
import { keysetPage, rowLimit } from "../internal/Paging.js"
import { storageOperation } from "../internal/storageOperation.js"
import { isUniqueViolation } from "../internal/uniqueViolation.js"

/** A `projects` row as selected below (timestamps as @effect/sql-pg delivers them: `Date`). */
const ProjectRow = Schema.Struct({
  id: Schema.String,
  account: Schema.String,
  plan: Plan,
  lastDeployStatus: Schema.NullOr(DeployStatus),
  lastDeployAt: Schema.NullOr(Schema.Date),
  lastSucceededDeployAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date
})

/** A row decoded into a `Project` (every field checked again), and a project encoded into a row. */
const ProjectFromRow = ProjectRow.pipe(
  Schema.decodeTo(
    Project,
    SchemaTransformation.transformEffect({
      decode: (row, options) => {
        if ((row.lastDeployStatus === null) !== (row.lastDeployAt === null)) {
          return Effect.fail(
            new SchemaIssue.InvalidValue(
              { message: "last_deploy_status and last_deploy_at must both be set or both be null" },
              row,
              options
            )
          )
        }
        return Effect.succeed({
          id: row.id,
          account: row.account,
          plan: row.plan,
          lastDeploy:
            row.lastDeployStatus === null || row.lastDeployAt === null
              ? null
              : { status: row.lastDeployStatus, at: isoText(row.lastDeployAt) },
          lastSucceededDeployAt: isoText(row.lastSucceededDeployAt),
          createdAt: isoText(row.createdAt)
        })
      },
      encode: (project) =>
        Effect.succeed({
          id: project.id,
          account: project.account,
          plan: project.plan,
          lastDeployStatus: project.lastDeploy?.status ?? null,
          lastDeployAt: dateFromIso(project.lastDeploy?.at ?? null),
          lastSucceededDeployAt: dateFromIso(project.lastSucceededDeployAt),
          createdAt: dateFromIso(project.createdAt)
        })
    })
  )
)

export const make: Effect.Effect<ProjectRepository["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql.literal(`id, account, plan, last_deploy_status as "lastDeployStatus",
      last_deploy_at as "lastDeployAt", last_succeeded_deploy_at as "lastSucceededDeployAt",
      created_at as "createdAt"`)

    const insertBelow = SqlSchema.findAll({
      Request: Schema.Struct({ row: ProjectFromRow, maxPerAccount: Schema.Int }),
      Result: Schema.Struct({ id: Schema.String }),
      execute: ({ maxPerAccount, row }) => sql`
        insert into projects (id, account, plan, last_deploy_status, last_deploy_at,
                              last_succeeded_deploy_at, created_at)
        select ${row.id}, ${row.account}, ${row.plan}, ${row.lastDeployStatus}, ${row.lastDeployAt},
               ${row.lastSucceededDeployAt}, ${row.createdAt}
        where (select count(*) from projects where account = ${row.account}) < ${maxPerAccount}
        returning id`
    })

    const insert = (project: Project, { projectsPerAccount }: Pick<LimitValues, "projectsPerAccount">) =>
      inLockedTransaction(
        sql,
        LockSpace.accountProjects,
        project.account
      )(insertBelow({ row: project, maxPerAccount: projectsPerAccount })).pipe(
        Effect.map((inserted) => (inserted.length === 0 ? "limit" : "inserted")),
        Effect.catchIf(isUniqueViolation("projects_pkey"), () => Effect.succeed("taken" as const)),
        storageOperation("ProjectRepository.insert"),
        Effect.flatMap((outcome): Effect.Effect<void, ProjectIdTaken | LimitReached> => {
          if (outcome === "taken") return Effect.fail(new ProjectIdTaken({ id: project.id }))
          if (outcome === "limit") return Effect.fail(limitReached("projectsPerAccount", projectsPerAccount))
          return Effect.void
        })
      )

    const listOwned = SqlSchema.findAll({
      Request: Schema.Struct({
        account: Schema.String,
        after: Schema.NullOr(Schema.String),
        limit: Schema.Int
      }),
      Result: ProjectFromRow,
      execute: ({ account, after, limit }) => sql`
        select ${columns} from projects
        where account = ${account} ${after === null ? sql`` : sql`and id collate "C" > ${after}`}
        order by id collate "C"
        limit ${limit}`
    })

    const update = SqlSchema.void({
      Request: ProjectFromRow,
      execute: (row) => sql`
        update projects set account = ${row.account}, plan = ${row.plan},
          last_deploy_status = ${row.lastDeployStatus}, last_deploy_at = ${row.lastDeployAt},
          last_succeeded_deploy_at = ${row.lastSucceededDeployAt}, created_at = ${row.createdAt}
        where id = ${row.id}`
    })

    const findById = SqlSchema.findOneOption({
      Request: ProjectId,
      Result: ProjectFromRow,
      execute: (id) => sql`select ${columns} from projects where id = ${id}`
    })

    const findOwned = SqlSchema.findOneOption({
      Request: Schema.Struct({ account: Schema.String, id: ProjectId }),
      Result: ProjectFromRow,
      execute: ({ account, id }) =>
        sql`select ${columns} from projects where id = ${id} and account = ${account}`
    })

    return ProjectRepository.of({
      insert,
      listOwned: ({ account, after, limit }) => {
        const size = rowLimit(limit)
        return listOwned({ account, after: Option.getOrNull(after), limit: size + 1 }).pipe(
          Effect.map((found) => {
            const { nextAfter, rows } = keysetPage(found, size, (project) => project.id)
            return { projects: rows, nextAfter }
          }),
          storageOperation("ProjectRepository.listOwned")
        )
      },
      findById: (id) => findById(id).pipe(storageOperation("ProjectRepository.findById")),
      findOwned: (account, id) =>
        findOwned({ account, id }).pipe(storageOperation("ProjectRepository.findOwned")),
      update: (project) => update(project).pipe(storageOperation("ProjectRepository.update"))
    })
  }
)

export const layer: Layer.Layer<ProjectRepository, never, SqlClient.SqlClient> = Layer.effect(
  ProjectRepository,
  make
)
