/**
 * The database the workers under test share: a fresh TestDatabase, migrated once, with one paid,
 * deployed project, and helpers to seed due domains through the PostgreSQL repositories and to read
 * what the workers left there.
 */
import { CustomDomainRepository, newCustomDomain, normaliseHostname, OwnershipToken } from "@petstore/domains"
import { AccountName, defaultLimits } from "@petstore/kernel"
import { Deploy, Project, ProjectId, ProjectRepository } from "@petstore/projects"
import {
  PgDomainRepository,
  PgMigrations,
  PgProjectRepository,
  PgStore,
  PrivateKeyCipher
} from "@petstore/store-pg"
import { TestDatabase } from "@petstore/testing"
import { Effect, Exit, Layer, ManagedRuntime, Redacted, Result, Scope } from "effect"
import { SqlClient } from "effect/sql"

export const zone = "example.com"
export const platformDomain = "docs.petstore.test"
export const cnameTarget = "cname.docs.petstore.test"
const projectId = ProjectId.make("scaling")
const account = AccountName.make("scaling-test")

/** `<n>.example.com`, as the domain normalises it. */
const hostnameOf = (n: number) =>
  Result.getOrThrowWith(normaliseHostname(`${n}.${zone}`, [platformDomain]), (rule) => new Error(rule))

type StoreServices =
  | CustomDomainRepository
  | ProjectRepository
  | SqlClient.SqlClient
  | PrivateKeyCipher.PrivateKeyCipher

export interface TestStore {
  readonly url: string
  readonly run: <A, E>(effect: Effect.Effect<A, E, StoreServices>) => Promise<A>
  /** Rows of `statement` (no parameters). */
  readonly query: <A extends object>(statement: string) => Promise<ReadonlyArray<A>>
  /** Removes every domain and adds `count` domains, all due a minute ago, `0.example.com` first. */
  readonly seedDueDomains: (count: number) => Promise<void>
  readonly countWhere: (condition: string) => Promise<number>
  readonly close: () => Promise<void>
}

export const openTestStore = async (): Promise<TestStore> => {
  const scope = Effect.runSync(Scope.make())
  const database = await Effect.runPromise(Scope.provide(TestDatabase.make, scope))
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(PgProjectRepository.layer, PgDomainRepository.layer).pipe(
      Layer.provideMerge(PgStore.clientLayer({ url: database.url, maxConnections: 4 })),
      // The migrations encrypt the webhooks' secrets they find (none here).
      Layer.provideMerge(PrivateKeyCipher.layer(Redacted.make("worker tests' secret")))
    )
  )
  const run = <A, E>(effect: Effect.Effect<A, E, StoreServices>) => runtime.runPromise(effect)
  const query = <A extends object>(statement: string) =>
    run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(statement)))
  const close = async () => {
    await runtime.dispose()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
  try {
    await run(PgMigrations.run)
    const deployedAt = new Date(Date.now() - 3_600_000)
    await run(
      Effect.flatMap(ProjectRepository, (projects) =>
        projects.insert(
          new Project({
            id: projectId,
            account,
            plan: "pro",
            lastDeploy: new Deploy({ status: "succeeded", at: deployedAt }),
            lastSucceededDeployAt: deployedAt,
            createdAt: deployedAt
          }),
          defaultLimits
        )
      )
    )
  } catch (error) {
    await close()
    throw error
  }
  return {
    url: database.url,
    run,
    query,
    seedDueDomains: (count) =>
      run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`delete from custom_domains`
          const domains = yield* CustomDomainRepository
          const addedAt = Date.now() - 60_000
          // One after another, so that `position` (and the claim order) follows n.
          yield* Effect.forEach(
            Array.from({ length: count }, (_, n) => n),
            (n) =>
              domains.insert(
                newCustomDomain(
                  { account, projectId },
                  hostnameOf(n),
                  // A token of its own per name, as the account's would be; nobody contests these names.
                  { token: OwnershipToken.make(n.toString(16).padStart(32, "0")), required: false },
                  cnameTarget,
                  new Date(addedAt + n)
                ),
                // One project holds them all: its limit is the seeded count, not the contract's 50.
                { domainsPerProject: count }
              ),
            { discard: true }
          )
        })
      ),
    countWhere: async (condition) => {
      const rows = await query<{ count: string }>(
        `select count(*)::text as count from custom_domains where ${condition}`
      )
      return Number(rows[0]?.count ?? Number.NaN)
    },
    close
  }
}
