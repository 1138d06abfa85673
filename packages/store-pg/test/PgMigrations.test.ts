/**
 * The schema, on a real PostgreSQL server and on the embedded PGlite: migrating again changes
 * nothing, and the database itself refuses rows the domain would refuse.
 */

import { expect, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import { Migrator, SqlClient, type SqlError } from "effect/sql"
import { PgMigrations } from "../src/index.js"
import { bothServers } from "./bothServers.js"

/** The SQLSTATE of a failed statement (the server's error is the cause of the `SqlError`'s reason). */
const sqlState = <A>(exit: Exit.Exit<A, SqlError.SqlError>): string | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  const failure = Option.map(Cause.findErrorOption(exit.cause), (error) => error.reason.cause)
  return Option.isSome(failure) &&
    typeof failure.value === "object" &&
    failure.value !== null &&
    "code" in failure.value
    ? String(failure.value.code)
    : undefined
}

const checkViolation = "23514"
const notNullViolation = "23502"
const foreignKeyViolation = "23503"
const uniqueViolation = "23505"
const generatedAlways = "428C9"

for (const [name, client] of bothServers) {
  layer(client, { excludeTestServices: true, timeout: 120_000 })(`PgMigrations on ${name}`, (it) => {
    it.effect("the first run applies every migration, the next ones none", () =>
      Effect.gen(function* () {
        const applied = yield* PgMigrations.run
        expect(applied.map(([id]) => id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
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

    it.effect("issuance, certificates and challenges: work due, references, cascades and formats", () =>
      Effect.gen(function* () {
        yield* PgMigrations.run
        const sql = yield* SqlClient.SqlClient
        yield* sql`insert into projects (id, account, plan, created_at) values ('certs', 'acct', 'pro', now())`
        const insertDomain = (hostname: string, nextCheckAt: Date | null, nextAttemptAt: Date | null) =>
          Effect.exit(
            sql`insert into custom_domains (hostname, project_id, kind, status, dns_record,
                  verification_next_check_at, verification_deadline, verification_problems, certificate,
                  created_at, issuance, issuance_next_attempt_at)
                values (${hostname}, 'certs', 'subdomain', 'verified', '{}'::jsonb, ${nextCheckAt}, now(),
                  '[]'::jsonb, '{}'::jsonb, now(), ${nextAttemptAt === null ? null : "{}"}::jsonb, ${nextAttemptAt})`
          )
        const [one, two] = [new Date("2026-03-01T12:00:01Z"), new Date("2026-03-01T12:00:02Z")]
        expect(Exit.isSuccess(yield* insertDomain("a.example.com", one, two))).toBe(true)
        expect(Exit.isSuccess(yield* insertDomain("b.example.com", two, one))).toBe(true)
        expect(Exit.isSuccess(yield* insertDomain("c.example.com", null, two))).toBe(true)
        expect(Exit.isSuccess(yield* insertDomain("d.example.com", null, null))).toBe(true)
        const due = yield* sql<{ readonly hostname: string; readonly workDueAt: Date | null }>`
          select hostname, work_due_at as "workDueAt" from custom_domains
          where project_id = 'certs' order by hostname`
        expect(due).toEqual([
          { hostname: "a.example.com", workDueAt: one },
          { hostname: "b.example.com", workDueAt: one },
          { hostname: "c.example.com", workDueAt: two },
          { hostname: "d.example.com", workDueAt: null }
        ])
        expect(
          sqlState(
            yield* Effect.exit(
              sql`update custom_domains set work_due_at = now() where hostname = 'a.example.com'`
            )
          )
        ).toBe(generatedAlways)
        expect(
          sqlState(
            yield* Effect.exit(
              sql`update custom_domains set issuance = '[]'::jsonb where hostname = 'a.example.com'`
            )
          )
        ).toBe(checkViolation)
        expect(
          sqlState(
            yield* Effect.exit(
              sql`update custom_domains set issuance = null where hostname = 'a.example.com'`
            )
          )
        ).toBe(checkViolation)

        const insertCertificate = (hostname: string, encrypted: string) =>
          Effect.exit(
            sql`insert into certificates (hostname, certificate_pem, chain_pem, private_key_encrypted, not_after)
                values (${hostname}, 'cert', 'chain', ${encrypted}, now())`
          )
        expect(Exit.isSuccess(yield* insertCertificate("a.example.com", "v1.iv.tag.data"))).toBe(true)
        expect(Exit.isSuccess(yield* insertCertificate("b.example.com", "v1.iv.tag.data"))).toBe(true)
        expect(sqlState(yield* insertCertificate("a.example.com", "v1.iv.tag.data"))).toBe(uniqueViolation)
        expect(sqlState(yield* insertCertificate("nowhere.example.com", "v1.iv.tag.data"))).toBe(
          foreignKeyViolation
        )
        expect(sqlState(yield* insertCertificate("c.example.com", "-----BEGIN PRIVATE KEY-----"))).toBe(
          checkViolation
        )
        // Removing a domain takes its certificate; removing the project takes the rest.
        yield* sql`delete from custom_domains where hostname = 'a.example.com'`
        expect(yield* sql`select hostname from certificates where hostname like '%.example.com'`).toEqual([
          { hostname: "b.example.com" }
        ])
        yield* sql`delete from projects where id = 'certs'`
        expect(yield* sql`select hostname from certificates where hostname like '%.example.com'`).toEqual([])

        const insertChallenge = (token: string, keyAuthorization: string) =>
          Effect.exit(
            sql`insert into http01_challenges (token, key_authorization) values (${token}, ${keyAuthorization})`
          )
        expect(Exit.isSuccess(yield* insertChallenge("tok", "tok.thumb"))).toBe(true)
        expect(sqlState(yield* insertChallenge("tok", "tok.other"))).toBe(uniqueViolation)
        expect(sqlState(yield* insertChallenge("", ".thumb"))).toBe(checkViolation)
        expect(sqlState(yield* insertChallenge("tok2", ""))).toBe(checkViolation)
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

for (const [name, client] of bothServers) {
  // A database of its own: the schema as it was before certificates, with data, then migrated.
  layer(client, { excludeTestServices: true, timeout: 120_000 })(`PgMigrations upgrade on ${name}`, (it) => {
    it.effect(
      "migrating a database with domains: work is due at their next check, a verified one's certificate is asked for",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const before = Object.fromEntries(
            Object.entries(PgMigrations.migrations).filter(([key]) => key < "0005")
          )
          const applied = yield* Migrator.make({})({
            loader: Migrator.fromRecord(before),
            table: PgMigrations.migrationsTable
          })
          expect(applied.map(([id]) => id)).toEqual([1, 2, 3, 4])
          yield* sql`insert into projects (id, account, plan, created_at) values ('old', 'acct', 'pro', now())`
          yield* sql`
          insert into custom_domains (hostname, project_id, kind, status, dns_record, verification_next_check_at,
            verification_deadline, verification_problems, certificate, created_at)
          values ('due.example.com', 'old', 'subdomain', 'pending', '{}'::jsonb, '2026-03-01T12:00:00Z', now(),
              '[]'::jsonb, '{}'::jsonb, now()),
            ('idle.example.com', 'old', 'subdomain', 'verified', '{}'::jsonb, null, now(), '[]'::jsonb,
              '{}'::jsonb, now())`

          expect((yield* PgMigrations.run).map(([id]) => id)).toEqual([5, 6, 7, 8])
          const rows = yield* sql<{
            readonly hostname: string
            readonly issuance: unknown
            readonly workDueAt: Date | null
          }>`select hostname, issuance, work_due_at as "workDueAt" from custom_domains order by hostname`
          const [due, verified] = rows
          expect(due).toEqual({
            hostname: "due.example.com",
            issuance: null,
            workDueAt: new Date("2026-03-01T12:00:00Z")
          })
          expect(verified?.hostname).toBe("idle.example.com")
          expect(verified?.issuance).toMatchObject({ order: null, attempts: 0 })
          const requestedAt = (verified?.issuance as { requestedAt?: string } | undefined)?.requestedAt ?? ""
          expect(Date.parse(requestedAt)).toBe(verified?.workDueAt?.getTime())
          expect(Math.abs((verified?.workDueAt?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000)
          expect(yield* sql`select * from certificates`).toEqual([])
          expect(yield* sql`select * from http01_challenges`).toEqual([])
        })
    )
  })
}
