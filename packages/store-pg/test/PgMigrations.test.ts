/**
 * The schema, on a real PostgreSQL server and on the embedded PGlite: migrating again changes
 * nothing, and the database itself refuses rows the domain would refuse.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { TestDatabase } from "@petstore/testing"
import { Effect, Exit, Layer } from "effect"
import { EmbeddedPostgres, PgMigrations, PgStore } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

const servers: ReadonlyArray<readonly [string, Layer.Layer<SqlClient.SqlClient, unknown>]> = [
  [
    "PostgreSQL",
    Layer.unwrapScoped(
      Effect.map(TestDatabase.make, (database) => PgStore.clientLayer({ url: database.url }))
    )
  ],
  [
    "embedded PGlite",
    Layer.unwrapScoped(
      Effect.map(temporaryDirectory, (dataDirectory) => EmbeddedPostgres.clientLayer({ dataDirectory }))
    )
  ]
]

/** The SQLSTATE of a failed statement. */
const sqlState = <A>(exit: Exit.Exit<A, SqlError.SqlError>): string | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  const failure = exit.cause._tag === "Fail" ? exit.cause.error.cause : undefined
  return typeof failure === "object" && failure !== null && "code" in failure
    ? String(failure.code)
    : undefined
}

const checkViolation = "23514"
const notNullViolation = "23502"
const foreignKeyViolation = "23503"
const uniqueViolation = "23505"
const generatedAlways = "428C9"

for (const [name, client] of servers) {
  layer(client, { excludeTestServices: true, timeout: 120_000 })(`PgMigrations on ${name}`, (it) => {
    it.effect("the first run applies every migration, the next ones none", () =>
      Effect.gen(function* () {
        const applied = yield* PgMigrations.run
        expect(applied.map(([id]) => id)).toEqual([1, 2, 3, 4])
        expect(yield* PgMigrations.run).toEqual([])
        expect(yield* PgMigrations.run).toEqual([])
      })
    )

    it.effect("pets: the database refuses what the domain refuses", () =>
      Effect.gen(function* () {
        yield* PgMigrations.run
        const sql = yield* SqlClient.SqlClient
        const insert = (name: string | null, categoryId: number | string, status: string | null) =>
          Effect.exit(
            sql`insert into pets (name, category_id, status) values (${name}, ${categoryId}, ${status})`
          )

        expect(Exit.isSuccess(yield* insert("x".repeat(200), "9007199254740991", "sold"))).toBe(true)
        expect(Exit.isSuccess(yield* insert("🐶".repeat(200), 1, "pending"))).toBe(true)
        expect(sqlState(yield* insert("", 1, "available"))).toBe(checkViolation)
        expect(sqlState(yield* insert("x".repeat(201), 1, "available"))).toBe(checkViolation)
        expect(sqlState(yield* insert("🐶".repeat(201), 1, "available"))).toBe(checkViolation)
        expect(sqlState(yield* insert(null, 1, "available"))).toBe(notNullViolation)
        expect(sqlState(yield* insert("Rex", 0, "available"))).toBe(checkViolation)
        expect(sqlState(yield* insert("Rex", "9007199254740992", "available"))).toBe(checkViolation)
        expect(sqlState(yield* insert("Rex", 1, "lost"))).toBe(checkViolation)
        expect(sqlState(yield* insert("Rex", 1, null))).toBe(notNullViolation)
        expect(
          sqlState(
            yield* Effect.exit(
              sql`insert into pets (id, name, category_id, status) values (7, 'Rex', 1, 'sold')`
            )
          )
        ).toBe(generatedAlways)
        expect(
          sqlState(
            yield* Effect.exit(
              sql`insert into pets (id, name, category_id, status) overriding system value
                  values (9007199254740992, 'Rex', 1, 'sold')`
            )
          )
        ).toBe(checkViolation)
      })
    )

    it.effect("projects and custom domains: one project per hostname, references, states and leases", () =>
      Effect.gen(function* () {
        yield* PgMigrations.run
        const sql = yield* SqlClient.SqlClient
        const insertProject = (
          id: string,
          plan: string,
          deployStatus: string | null,
          deployAt: Date | null
        ) =>
          Effect.exit(
            sql`insert into projects (id, account, plan, last_deploy_status, last_deploy_at, created_at)
                values (${id}, 'acct', ${plan}, ${deployStatus}, ${deployAt}, now())`
          )
        expect(Exit.isSuccess(yield* insertProject("docs-a", "pro", "succeeded", new Date()))).toBe(true)
        expect(Exit.isSuccess(yield* insertProject("docs-b", "free", null, null))).toBe(true)
        expect(sqlState(yield* insertProject("docs-a", "pro", null, null))).toBe(uniqueViolation)
        expect(sqlState(yield* insertProject("docs-c", "gold", null, null))).toBe(checkViolation)
        expect(sqlState(yield* insertProject("docs-c", "pro", "succeeded", null))).toBe(checkViolation)
        expect(sqlState(yield* insertProject("Docs_C", "pro", null, null))).toBe(checkViolation)

        const insertDomain = (
          hostname: string,
          projectId: string,
          status: string,
          lease: readonly [string | null, Date | null] = [null, null]
        ) =>
          Effect.exit(
            sql`insert into custom_domains (hostname, project_id, kind, status, dns_record,
                  verification_deadline, verification_problems, certificate, created_at,
                  lease_holder, lease_until)
                values (${hostname}, ${projectId}, 'subdomain', ${status}, '{}'::jsonb, now(), '[]'::jsonb,
                  '{}'::jsonb, now(), ${lease[0]}, ${lease[1]})`
          )
        expect(Exit.isSuccess(yield* insertDomain("docs.example.com", "docs-a", "pending"))).toBe(true)
        expect(sqlState(yield* insertDomain("docs.example.com", "docs-b", "pending"))).toBe(uniqueViolation)
        expect(sqlState(yield* insertDomain("www.example.com", "nowhere", "pending"))).toBe(
          foreignKeyViolation
        )
        expect(sqlState(yield* insertDomain("www.example.com", "docs-a", "lost"))).toBe(checkViolation)
        expect(sqlState(yield* insertDomain("WWW.example.com", "docs-a", "pending"))).toBe(checkViolation)
        expect(sqlState(yield* insertDomain("www.example.com", "docs-a", "pending", ["w1", null]))).toBe(
          checkViolation
        )
        expect(
          sqlState(
            yield* Effect.exit(
              sql`update custom_domains set verification_problems = '{}'::jsonb where hostname = 'docs.example.com'`
            )
          )
        ).toBe(checkViolation)
        expect(
          sqlState(
            yield* Effect.exit(
              sql`update custom_domains set position = 7 where hostname = 'docs.example.com'`
            )
          )
        ).toBe(generatedAlways)

        // Removing a project takes its domains with it, freeing their hostnames.
        yield* sql`delete from projects where id = 'docs-a'`
        expect(Exit.isSuccess(yield* insertDomain("docs.example.com", "docs-b", "pending"))).toBe(true)
      })
    )

    it.effect("api keys and idempotency keys: hashes, uniqueness and references are enforced", () =>
      Effect.gen(function* () {
        yield* PgMigrations.run
        const sql = yield* SqlClient.SqlClient
        const hash = "a".repeat(64)
        const insertKey = (id: string, keyHash: string) =>
          Effect.exit(
            sql`insert into api_keys (id, account, hash, created_at) values (${id}, 'default', ${keyHash}, now())`
          )
        expect(Exit.isSuccess(yield* insertKey("key_1", hash))).toBe(true)
        expect(sqlState(yield* insertKey("key_2", hash))).toBe(uniqueViolation)
        expect(sqlState(yield* insertKey("key_3", "not-a-hash"))).toBe(checkViolation)
        expect(
          sqlState(
            yield* Effect.exit(
              sql`insert into idempotency_keys (account, key, fingerprint, pet_id, created_at)
                  values ('default', 'k', 'fp', 424242424242, now())`
            )
          )
        ).toBe(foreignKeyViolation)
      })
    )
  })
}
