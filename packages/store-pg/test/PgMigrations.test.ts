/**
 * The schema, on a real PostgreSQL server and on the embedded PGlite: migrating again changes
 * nothing, and the database itself refuses rows the domain would refuse.
 */

import { expect, layer } from "@effect/vitest"
import { CustomDomain, Hostname, newCustomDomain, OwnershipToken } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { WebhookId } from "@petstore/webhooks"
import { Cause, Effect, Exit, Layer, Option, Schema } from "effect"
import { Migrator, SqlClient, type SqlError } from "effect/sql"
import {
  PgDomainRepository,
  PgMigrations,
  PgOwnershipRepository,
  PgWebhookRepository,
  PrivateKeyCipher
} from "../src/index.js"
import { bothServers } from "./bothServers.js"
import { testCipher } from "./testCipher.js"

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

/** What the store writes as a test hostname's registrable domain (its last two labels here). */
const apexOf = (hostname: string): string => hostname.split(".").slice(-2).join(".")

/** The record of migrations, for its keys: no migration of it runs with this cipher. */
const record = PgMigrations.migrations(
  PrivateKeyCipher.PrivateKeyCipher.of({
    encrypt: () => Effect.die(new Error("not run")),
    decrypt: () => Effect.die(new Error("not run"))
  })
)

/** The ids of the migrations from `first` on, as the record lists them: what a run from there applies. */
const idsFrom = (first: number): ReadonlyArray<number> =>
  Object.keys(record)
    .map((key) => Number.parseInt(key, 10))
    .filter((id) => id >= first)

const checkViolation = "23514"
const notNullViolation = "23502"
const foreignKeyViolation = "23503"
const uniqueViolation = "23505"
const generatedAlways = "428C9"

for (const [name, client] of bothServers) {
  layer(Layer.merge(client, testCipher), { excludeTestServices: true, timeout: 120_000 })(
    `PgMigrations on ${name}`,
    (it) => {
      it.effect("the first run applies every migration, the next ones none", () =>
        Effect.gen(function* () {
          // The record's ids run 1, 2, 3… without a gap or a repeat, and a first run applies them all.
          expect(idsFrom(1)).toEqual(Array.from({ length: idsFrom(1).length }, (_, index) => index + 1))
          expect(idsFrom(1).length).toBeGreaterThanOrEqual(12)
          const applied = yield* PgMigrations.run
          expect(applied.map(([id]) => id)).toEqual(idsFrom(1))
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

      it.effect(
        "projects and custom domains: one project per hostname and account, references, states and leases",
        () =>
          Effect.gen(function* () {
            yield* PgMigrations.run
            const sql = yield* SqlClient.SqlClient
            const insertProject = (
              id: string,
              plan: string,
              deployStatus: string | null,
              deployAt: Date | null,
              account = "acct"
            ) =>
              Effect.exit(
                sql`insert into projects (id, account, plan, last_deploy_status, last_deploy_at, created_at)
                values (${id}, ${account}, ${plan}, ${deployStatus}, ${deployAt}, now())`
              )
            expect(Exit.isSuccess(yield* insertProject("docs-a", "pro", "succeeded", new Date()))).toBe(true)
            expect(Exit.isSuccess(yield* insertProject("docs-b", "free", null, null))).toBe(true)
            expect(sqlState(yield* insertProject("docs-a", "pro", null, null))).toBe(uniqueViolation)
            expect(sqlState(yield* insertProject("docs-c", "gold", null, null))).toBe(checkViolation)
            expect(sqlState(yield* insertProject("docs-c", "pro", "succeeded", null))).toBe(checkViolation)
            expect(sqlState(yield* insertProject("Docs_C", "pro", null, null))).toBe(checkViolation)

            expect(Exit.isSuccess(yield* insertProject("docs-o", "pro", null, null, "other"))).toBe(true)

            const insertDomain = (
              hostname: string,
              projectId: string,
              status: string,
              lease: readonly [string | null, Date | null] = [null, null],
              account = "acct"
            ) =>
              Effect.exit(
                sql`insert into custom_domains (hostname, project_id, account, kind, status, dns_record, ownership,
                  verification_deadline, verification_problems, certificate, created_at,
                  lease_holder, lease_until, apex)
                values (${hostname}, ${projectId}, ${account}, 'subdomain', ${status}, '{}'::jsonb, '{}'::jsonb,
                  now(), '[]'::jsonb, '{}'::jsonb, now(), ${lease[0]}, ${lease[1]}, ${apexOf(hostname)})`
              )
            expect(Exit.isSuccess(yield* insertDomain("docs.example.com", "docs-a", "pending"))).toBe(true)
            // Another project of the same account: refused; a project of another account: its own domain.
            expect(sqlState(yield* insertDomain("docs.example.com", "docs-b", "pending"))).toBe(
              uniqueViolation
            )
            expect(
              Exit.isSuccess(
                yield* insertDomain("docs.example.com", "docs-o", "pending", [null, null], "other")
              )
            ).toBe(true)
            expect(
              sqlState(yield* insertDomain("docs.example.com", "docs-o", "pending", [null, null], "other"))
            ).toBe(uniqueViolation)
            // The domain's account is its project's.
            expect(
              sqlState(yield* insertDomain("www.example.com", "docs-a", "pending", [null, null], "other"))
            ).toBe(foreignKeyViolation)
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
                  sql`update custom_domains set ownership = '"TXT"'::jsonb where hostname = 'docs.example.com'`
                )
              )
            ).toBe(checkViolation)
            expect(
              sqlState(
                yield* Effect.exit(
                  sql`update custom_domains set ownership = null where hostname = 'docs.example.com'`
                )
              )
            ).toBe(notNullViolation)
            expect(
              sqlState(
                yield* Effect.exit(
                  sql`update custom_domains set position = 7 where hostname = 'docs.example.com'`
                )
              )
            ).toBe(generatedAlways)

            // Removing a project takes its domains with it, freeing their hostnames for the account.
            yield* sql`delete from projects where id = 'docs-a'`
            expect(Exit.isSuccess(yield* insertDomain("docs.example.com", "docs-b", "pending"))).toBe(true)
            expect(
              yield* sql`select project_id from custom_domains where hostname = 'docs.example.com' order by 1`
            ).toEqual([{ project_id: "docs-b" }, { project_id: "docs-o" }])
          })
      )

      it.effect("issuance, certificates and challenges: work due, references, cascades and formats", () =>
        Effect.gen(function* () {
          yield* PgMigrations.run
          const sql = yield* SqlClient.SqlClient
          yield* sql`insert into projects (id, account, plan, created_at) values ('certs', 'acct', 'pro', now())`
          const insertDomain = (hostname: string, nextCheckAt: Date | null, nextAttemptAt: Date | null) =>
            Effect.exit(
              sql`insert into custom_domains (hostname, project_id, account, kind, status, dns_record, ownership,
                  verification_next_check_at, verification_deadline, verification_problems, certificate,
                  created_at, issuance, issuance_next_attempt_at, apex)
                values (${hostname}, 'certs', 'acct', 'subdomain', 'verified', '{}'::jsonb, '{}'::jsonb,
                  ${nextCheckAt}, now(), '[]'::jsonb, '{}'::jsonb, now(),
                  ${nextAttemptAt === null ? null : "{}"}::jsonb, ${nextAttemptAt}, ${apexOf(hostname)})`
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
          expect(yield* sql`select hostname from certificates where hostname like '%.example.com'`).toEqual(
            []
          )

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

      it.effect(
        "ownership: tokens, releases and claims are checked; a certificate follows the verified domain",
        () =>
          Effect.gen(function* () {
            yield* PgMigrations.run
            const sql = yield* SqlClient.SqlClient
            const insertToken = (account: string, name: string, token: string) =>
              Effect.exit(
                sql`insert into ownership_tokens (account, name, token) values (${account}, ${name}, ${token})`
              )
            const token = "0123456789abcdef0123456789abcdef"
            expect(Exit.isSuccess(yield* insertToken("acct", "docs.example.com", token))).toBe(true)
            expect(
              Exit.isSuccess(yield* insertToken("other", "docs.example.com", token.replace("0", "1")))
            ).toBe(true)
            expect(sqlState(yield* insertToken("acct", "docs.example.com", token))).toBe(uniqueViolation)
            expect(sqlState(yield* insertToken("acct", "www.example.com", token.toUpperCase()))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertToken("acct", "www.example.com", token.slice(1)))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertToken("acct", "WWW.example.com", token))).toBe(checkViolation)

            const insertRelease = (account: string, hostname: string) =>
              Effect.exit(
                sql`insert into hostname_releases (account, hostname, released_at) values (${account}, ${hostname}, now())`
              )
            expect(Exit.isSuccess(yield* insertRelease("acct", "docs.example.com"))).toBe(true)
            expect(Exit.isSuccess(yield* insertRelease("other", "docs.example.com"))).toBe(true)
            expect(sqlState(yield* insertRelease("acct", "docs.example.com"))).toBe(uniqueViolation)

            const insertClaim = (
              account: string,
              apex: string,
              status: string,
              verifiedAt: Date | null,
              lease: readonly [string | null, Date | null] = [null, null]
            ) =>
              Effect.exit(
                sql`insert into claims (account, apex, status, txt, verified_at, created_at, lease_holder, lease_until)
                values (${account}, ${apex}, ${status}, '{}'::jsonb, ${verifiedAt}, now(), ${lease[0]}, ${lease[1]})`
              )
            expect(Exit.isSuccess(yield* insertClaim("acct", "example.com", "pending", null))).toBe(true)
            expect(Exit.isSuccess(yield* insertClaim("other", "example.com", "verified", new Date()))).toBe(
              true
            )
            expect(sqlState(yield* insertClaim("acct", "example.com", "pending", null))).toBe(uniqueViolation)
            expect(sqlState(yield* insertClaim("acct", "example.net", "verified", null))).toBe(checkViolation)
            expect(sqlState(yield* insertClaim("acct", "example.net", "pending", new Date()))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertClaim("acct", "example.net", "lost", null))).toBe(checkViolation)
            expect(sqlState(yield* insertClaim("acct", "Example.net", "pending", null))).toBe(checkViolation)
            expect(sqlState(yield* insertClaim("acct", "example.net", "pending", null, ["w1", null]))).toBe(
              checkViolation
            )
            expect(
              sqlState(
                yield* Effect.exit(sql`update claims set txt = '[]'::jsonb where apex = 'example.com'`)
              )
            ).toBe(checkViolation)

            // Two accounts hold one hostname; the certificate is the verified domain's.
            yield* sql`insert into projects (id, account, plan, created_at)
                   values ('own-a', 'acct', 'pro', now()), ('own-b', 'other', 'pro', now())`
            const insertDomain = (projectId: string, account: string, status: string) =>
              sql`insert into custom_domains (hostname, project_id, account, kind, status, dns_record, ownership,
                verification_deadline, verification_problems, certificate, created_at, apex)
              values ('shared.example.org', ${projectId}, ${account}, 'subdomain', ${status}, '{}'::jsonb,
                '{}'::jsonb, now(), '[]'::jsonb, '{}'::jsonb, now(), 'example.org')`
            yield* insertDomain("own-a", "acct", "verified")
            yield* insertDomain("own-b", "other", "pending")
            const saveCertificate = sql`
          insert into certificates (hostname, certificate_pem, chain_pem, private_key_encrypted, not_after)
          values ('shared.example.org', 'cert', 'chain', 'v1.iv.tag.data', now())`
            const certificates = sql`select hostname from certificates where hostname = 'shared.example.org'`
            yield* saveCertificate
            // The contender goes: the certificate stays with the verified domain.
            yield* sql`delete from custom_domains where project_id = 'own-b'`
            expect(yield* certificates).toEqual([{ hostname: "shared.example.org" }])
            // The verified domain goes: its certificate too, though a pending domain still has the name.
            yield* insertDomain("own-b", "other", "pending")
            yield* sql`delete from custom_domains where project_id = 'own-a'`
            expect(yield* certificates).toEqual([])
            // A certificate needs a domain with its hostname; the last domain takes it along.
            yield* saveCertificate
            yield* sql`delete from projects where id = 'own-b'`
            expect(yield* certificates).toEqual([])
            expect(sqlState(yield* Effect.exit(saveCertificate))).toBe(foreignKeyViolation)
          })
      )

      it.effect(
        "domain events: ids in order, the ten types, a domain's names, data an object, no reference",
        () =>
          Effect.gen(function* () {
            yield* PgMigrations.run
            const sql = yield* SqlClient.SqlClient
            const insertEvent = (
              projectId: string,
              hostname: string,
              type: string,
              occurredAt: Date | string | null = new Date("2026-03-01T12:00:00Z"),
              data: string | null = "{}"
            ) =>
              Effect.exit(
                sql<{ readonly id: bigint }>`
              insert into domain_events (project_id, hostname, type, occurred_at, data)
              values (${projectId}, ${hostname}, ${type}, ${occurredAt}::timestamptz, ${data}::jsonb)
              returning id`
              )
            const types = [
              "domain.added",
              "domain.verified",
              "domain.failed",
              "domain.removed",
              "domain.problems_changed",
              "certificate.issued",
              "certificate.delayed",
              "certificate.failed",
              "certificate.renewed",
              "certificate.renewal_failed"
            ]
            // Every type the domain has; the ids grow. No domain, nor even a project, is needed: a
            // removed domain keeps its events.
            const ids: Array<bigint> = []
            for (const type of types) {
              const inserted = yield* insertEvent("events-site", "docs.example.com", type)
              if (Exit.isFailure(inserted)) return yield* Effect.die(inserted.cause)
              ids.push(inserted.value[0]?.id ?? 0n)
            }
            expect(ids.every((id, n) => n === 0 || id > (ids[n - 1] ?? id))).toBe(true)
            expect(sqlState(yield* insertEvent("events-site", "docs.example.com", "domain.renamed"))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertEvent("events-site", "docs.example.com", "Domain.Added"))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertEvent("Events_Site", "docs.example.com", "domain.added"))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertEvent("events-site", "Docs.example.com", "domain.added"))).toBe(
              checkViolation
            )
            expect(
              sqlState(yield* insertEvent("events-site", `${"a".repeat(250)}.com`, "domain.added"))
            ).toBe(checkViolation)
            expect(
              sqlState(yield* insertEvent("events-site", "docs.example.com", "domain.added", null))
            ).toBe(notNullViolation)
            expect(
              sqlState(yield* insertEvent("events-site", "docs.example.com", "domain.added", "infinity"))
            ).toBe(checkViolation)
            for (const data of ["[]", '"Domain"', "null"]) {
              expect(
                sqlState(
                  yield* insertEvent("events-site", "docs.example.com", "domain.added", new Date(), data)
                )
              ).toBe(checkViolation)
            }
            expect(
              sqlState(
                yield* insertEvent("events-site", "docs.example.com", "domain.added", new Date(), null)
              )
            ).toBe(notNullViolation)
            expect(
              sqlState(
                yield* Effect.exit(
                  sql`insert into domain_events (id, project_id, hostname, type, occurred_at, data)
                  values (1, 'events-site', 'docs.example.com', 'domain.added', now(), '{}'::jsonb)`
                )
              )
            ).toBe(generatedAlways)
            // Read by project in id order, forgotten by time: each has its index.
            const indexes = yield* sql<{ readonly indexdef: string }>`
          select indexdef from pg_indexes where tablename = 'domain_events' order by indexname`
            expect(indexes.map(({ indexdef }) => indexdef.replace(/^.* USING /, ""))).toEqual([
              "btree (occurred_at)",
              "btree (id)",
              "btree (project_id, id)"
            ])
          })
      )

      it.effect(
        "webhooks, deliveries and attempts: the domain's shapes, references, and what goes with a webhook or an event",
        () =>
          Effect.gen(function* () {
            yield* PgMigrations.run
            const sql = yield* SqlClient.SqlClient
            yield* sql`insert into projects (id, account, plan, created_at) values ('hooks', 'acct', 'pro', now())`
            const id = (letter: string) => `wh_${letter.repeat(26)}`
            // Sealed (0014): a plain secret is refused.
            const secret = "v1.aXY.dGFn.c2VhbGVk"
            const insertWebhook = (
              webhookId: string,
              options: {
                readonly projectId?: string
                readonly url?: string | null
                readonly events?: string | null
                readonly secret?: string | null
              } = {}
            ) =>
              Effect.exit(
                sql`insert into webhooks (id, project_id, url, events, secret, created_at)
                values (${webhookId}, ${options.projectId ?? "hooks"}, ${options.url === undefined ? "https://hooks.example.test/" : options.url},
                  ${options.events === undefined ? null : options.events}::text[],
                  ${options.secret === undefined ? secret : options.secret}, now())`
              )
            expect(Exit.isSuccess(yield* insertWebhook(id("a")))).toBe(true)
            expect(
              Exit.isSuccess(
                yield* insertWebhook(id("b"), { events: "{domain.added,certificate.renewal_failed}" })
              )
            ).toBe(true)
            // Listening to nothing is not every type: kept as an empty array.
            expect(Exit.isSuccess(yield* insertWebhook(id("c"), { events: "{}" }))).toBe(true)
            expect(sqlState(yield* insertWebhook(id("a")))).toBe(uniqueViolation)
            for (const wrong of [
              `wh_${"A".repeat(26)}`,
              `wh_${"a".repeat(25)}`,
              `wh_${"1".repeat(26)}`,
              "a".repeat(29)
            ]) {
              expect(sqlState(yield* insertWebhook(wrong))).toBe(checkViolation)
            }
            for (const wrong of [
              `whsec_${"A+/9".repeat(10)}abc=`,
              `whsec_${"A".repeat(42)}==`,
              "A".repeat(50),
              ` ${secret}`
            ]) {
              expect(sqlState(yield* insertWebhook(id("d"), { secret: wrong }))).toBe(checkViolation)
            }
            expect(sqlState(yield* insertWebhook(id("d"), { events: "{domain.renamed}" }))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertWebhook(id("d"), { events: "{domain.added,NULL}" }))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertWebhook(id("d"), { url: "" }))).toBe(checkViolation)
            expect(sqlState(yield* insertWebhook(id("d"), { url: null }))).toBe(notNullViolation)
            expect(sqlState(yield* insertWebhook(id("d"), { secret: null }))).toBe(notNullViolation)
            expect(sqlState(yield* insertWebhook(id("d"), { projectId: "nowhere" }))).toBe(
              foreignKeyViolation
            )

            const [first, second] = yield* sql<{ readonly id: bigint }>`
            insert into domain_events (project_id, hostname, type, occurred_at, data)
            values ('hooks', 'docs.example.com', 'domain.added', now(), '{}'::jsonb),
              ('hooks', 'docs.example.com', 'domain.verified', now(), '{}'::jsonb)
            returning id`
            const [e1, e2] = [String(first?.id), String(second?.id)]
            const insertDelivery = (
              webhookId: string,
              eventId: string,
              options: {
                readonly hostname?: string
                readonly attempts?: number
                readonly firstAttemptAt?: Date | null
                readonly status?: string
                readonly lease?: readonly [string | null, Date | null]
              } = {}
            ) =>
              Effect.exit(
                sql`insert into webhook_deliveries (webhook_id, event_id, hostname, attempts, first_attempt_at,
                  next_attempt_at, status, lease_holder, lease_until)
                values (${webhookId}, ${eventId}::bigint, ${options.hostname ?? "docs.example.com"},
                  ${options.attempts ?? 0}, ${options.firstAttemptAt ?? null}, now(), ${options.status ?? "pending"},
                  ${options.lease?.[0] ?? null}, ${options.lease?.[1] ?? null})`
              )
            expect(Exit.isSuccess(yield* insertDelivery(id("a"), e1))).toBe(true)
            expect(
              Exit.isSuccess(yield* insertDelivery(id("a"), e2, { attempts: 2, firstAttemptAt: new Date() }))
            ).toBe(true)
            expect(
              Exit.isSuccess(
                yield* insertDelivery(id("b"), e1, {
                  status: "delivered",
                  attempts: 1,
                  firstAttemptAt: new Date(),
                  lease: ["w", new Date()]
                })
              )
            ).toBe(true)
            expect(sqlState(yield* insertDelivery(id("a"), e1))).toBe(uniqueViolation)
            expect(sqlState(yield* insertDelivery(id("c"), e1, { status: "sent" }))).toBe(checkViolation)
            expect(sqlState(yield* insertDelivery(id("c"), e1, { attempts: -1 }))).toBe(checkViolation)
            // Attempts made and the first attempt's time go together.
            expect(sqlState(yield* insertDelivery(id("c"), e1, { attempts: 1 }))).toBe(checkViolation)
            expect(sqlState(yield* insertDelivery(id("c"), e1, { firstAttemptAt: new Date() }))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertDelivery(id("c"), e1, { lease: ["w", null] }))).toBe(checkViolation)
            expect(sqlState(yield* insertDelivery(id("c"), e1, { lease: [null, new Date()] }))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertDelivery(id("c"), e1, { hostname: "Docs.example.com" }))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertDelivery(id("z"), e1))).toBe(foreignKeyViolation)
            expect(sqlState(yield* insertDelivery(id("c"), "424242424242"))).toBe(foreignKeyViolation)

            const insertAttempt = (
              webhookId: string,
              eventId: string,
              attempt: number,
              status: string,
              httpStatus: number | null,
              error: string | null = status === "delivered" ? null : "refused_address"
            ) =>
              Effect.exit(
                sql`insert into webhook_attempts (webhook_id, event_id, attempt, status, http_status, error, at)
                values (${webhookId}, ${eventId}::bigint, ${attempt}, ${status}, ${httpStatus}, ${error}, now())`
              )
            expect(Exit.isSuccess(yield* insertAttempt(id("a"), e2, 1, "retrying", null))).toBe(true)
            // Any three digits a receiver answers are kept.
            expect(Exit.isSuccess(yield* insertAttempt(id("a"), e2, 2, "retrying", 999))).toBe(true)
            expect(Exit.isSuccess(yield* insertAttempt(id("b"), e1, 1, "delivered", 204))).toBe(true)
            expect(sqlState(yield* insertAttempt(id("a"), e2, 1, "failed", null))).toBe(uniqueViolation)
            expect(sqlState(yield* insertAttempt(id("a"), e2, 0, "retrying", 503))).toBe(checkViolation)
            expect(sqlState(yield* insertAttempt(id("a"), e2, 3, "pending", 503))).toBe(checkViolation)
            expect(sqlState(yield* insertAttempt(id("a"), e2, 3, "retrying", 1000))).toBe(checkViolation)
            expect(sqlState(yield* insertAttempt(id("a"), e2, 3, "retrying", 99))).toBe(checkViolation)
            // Delivered is a 2xx answer, with no error.
            expect(sqlState(yield* insertAttempt(id("a"), e2, 3, "delivered", 503, null))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertAttempt(id("a"), e2, 3, "delivered", null, null))).toBe(
              checkViolation
            )
            expect(sqlState(yield* insertAttempt(id("a"), e2, 3, "delivered", 200, "late"))).toBe(
              checkViolation
            )
            // Errors are generic reasons only (0014): no address, no resolver's words.
            expect(
              sqlState(
                yield* insertAttempt(id("a"), e2, 3, "retrying", null, "connect ECONNREFUSED 10.0.0.1:443")
              )
            ).toBe(checkViolation)
            // An attempt is at a delivery there is.
            expect(sqlState(yield* insertAttempt(id("c"), e2, 1, "retrying", 503))).toBe(foreignKeyViolation)

            const remaining = () =>
              Effect.all({
                deliveries: sql<{ readonly webhookId: string; readonly eventId: string }>`
                select webhook_id as "webhookId", event_id::text as "eventId" from webhook_deliveries
                order by webhook_id, event_id`,
                attempts: sql<{ readonly webhookId: string; readonly attempt: number }>`
                select webhook_id as "webhookId", attempt from webhook_attempts order by webhook_id, attempt`
              })
            // Retention forgets the first event: its deliveries and their attempts go with it.
            yield* sql`delete from domain_events where id = ${e1}::bigint`
            expect(yield* remaining()).toEqual({
              deliveries: [{ webhookId: id("a"), eventId: e2 }],
              attempts: [
                { webhookId: id("a"), attempt: 1 },
                { webhookId: id("a"), attempt: 2 }
              ]
            })
            // A removed webhook's go with it.
            yield* sql`delete from webhooks where id = ${id("a")}`
            expect(yield* remaining()).toEqual({ deliveries: [], attempts: [] })

            // Listed by project, due ones and the order per webhook and hostname by partial indexes.
            const indexes = yield* sql<{ readonly indexdef: string }>`
            select indexdef from pg_indexes
            where tablename in ('webhooks', 'webhook_deliveries', 'webhook_attempts')
            order by indexname`
            expect(
              indexes.map(({ indexdef }) =>
                indexdef.replace(/^CREATE (UNIQUE )?INDEX (\w+) ON \S+ USING /, "$2 ")
              )
            ).toEqual([
              'webhook_attempts_latest btree (webhook_id, at, "position")',
              "webhook_attempts_pkey btree (webhook_id, event_id, attempt)",
              "webhook_deliveries_due btree (next_attempt_at) WHERE (status = 'pending'::text)",
              "webhook_deliveries_event btree (event_id)",
              "webhook_deliveries_order btree (webhook_id, hostname, event_id) WHERE (status = 'pending'::text)",
              "webhook_deliveries_pkey btree (webhook_id, event_id)",
              "webhooks_pkey btree (id)",
              'webhooks_project btree (project_id, "position")'
            ])
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
    }
  )
}

for (const [name, client] of bothServers) {
  // A database of its own: the schema as it was before certificates, with data, then migrated.
  layer(Layer.merge(client, testCipher), { excludeTestServices: true, timeout: 120_000 })(
    `PgMigrations upgrade on ${name}`,
    (it) => {
      it.effect(
        "migrating a database with domains: work is due at their next check, a verified one's certificate is asked for",
        () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const before = Object.fromEntries(
              Object.entries(PgMigrations.migrations(yield* PrivateKeyCipher.PrivateKeyCipher)).filter(
                ([key]) => key < "0005"
              )
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

            expect((yield* PgMigrations.run).map(([id]) => id)).toEqual(idsFrom(5))
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
            const requestedAt =
              (verified?.issuance as { requestedAt?: string } | undefined)?.requestedAt ?? ""
            expect(Date.parse(requestedAt)).toBe(verified?.workDueAt?.getTime())
            expect(Math.abs((verified?.workDueAt?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000)
            expect(yield* sql`select * from certificates`).toEqual([])
            expect(yield* sql`select * from http01_challenges`).toEqual([])
          })
      )
    }
  )
}

for (const [name, client] of bothServers) {
  // A database of its own: the schema as it was before ownership, with a verified domain, then migrated.
  layer(Layer.merge(client, testCipher), { excludeTestServices: true, timeout: 120_000 })(
    `PgMigrations upgrade to ownership on ${name}`,
    (it) => {
      it.effect(
        "migrating a database with domains: each keeps its state and gets its account's token, not required",
        () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const before = Object.fromEntries(
              Object.entries(PgMigrations.migrations(yield* PrivateKeyCipher.PrivateKeyCipher)).filter(
                ([key]) => key < "0009"
              )
            )
            const applied = yield* Migrator.make({})({
              loader: Migrator.fromRecord(before),
              table: PgMigrations.migrationsTable
            })
            expect(applied.map(([id]) => id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
            yield* sql`
              insert into projects (id, account, plan, created_at)
              values ('site', 'acct', 'pro', now()), ('blog', 'acct', 'pro', now()), ('else', 'other', 'pro', now())`
            // The columns a domain had then, as the domain schemas encode them.
            const encoded = Schema.encodeSync(CustomDomain)(
              newCustomDomain(
                { account: AccountName.make("acct"), projectId: ProjectId.make("site") },
                Hostname.make("docs.example.com"),
                { token: OwnershipToken.make("0".repeat(32)), required: true },
                "sites.platform.test",
                new Date("2026-03-01T12:00:00.000Z")
              )
            )
            const insertDomain = (hostname: string, projectId: string, status: string) => sql`
              insert into custom_domains (hostname, project_id, kind, status, dns_record,
                verification_last_checked_at, verification_next_check_at, verification_deadline,
                verification_problems, certificate, created_at, issuance)
              values (${hostname}, ${projectId}, 'subdomain', ${status}, ${JSON.stringify(encoded.dnsRecord)}::jsonb,
                now(), null, ${encoded.verification.deadline}, '[]'::jsonb,
                ${JSON.stringify(encoded.certificate)}::jsonb, ${encoded.createdAt}, null)`
            yield* insertDomain("docs.example.com", "site", "verified")
            yield* insertDomain("www.example.com", "blog", "pending")
            yield* insertDomain("api.example.net", "else", "pending")
            yield* sql`
              insert into certificates (hostname, certificate_pem, chain_pem, private_key_encrypted, not_after)
              values ('docs.example.com', 'cert', 'chain', 'v1.iv.tag.data', now())`

            expect((yield* PgMigrations.run).map(([id]) => id)).toEqual(idsFrom(9))
            const rows = yield* sql<{
              readonly hostname: string
              readonly account: string
              readonly status: string
              readonly ownership: unknown
              readonly token: string | null
            }>`
              select d.hostname, d.account, d.status, d.ownership, t.token
              from custom_domains d
              left join ownership_tokens t on t.account = d.account and t.name = d.hostname
              order by d.hostname`
            expect(rows.map(({ account, hostname, status }) => [hostname, account, status])).toEqual([
              ["api.example.net", "other", "pending"],
              ["docs.example.com", "acct", "verified"],
              ["www.example.com", "acct", "pending"]
            ])
            for (const row of rows) {
              expect(row.token).toMatch(/^[0-9a-f]{32}$/)
              expect(row.ownership).toEqual({
                type: "TXT",
                name: `_petstore-challenge.${row.hostname}`,
                value: `petstore-verification=${row.token}`,
                required: false
              })
            }
            // Every pair its own token.
            expect(new Set(rows.map((row) => row.token)).size).toBe(3)
            // Domains that were there have no events: nothing happened to them since.
            expect(yield* sql`select count(*)::int as count from domain_events`).toEqual([{ count: 0 }])
            expect(yield* sql`select count(*)::int as count from ownership_tokens`).toEqual([{ count: 3 }])

            // The repository reads the migrated domain: still verified, still served, its certificate kept.
            const { domains } = yield* PgDomainRepository.make
            const found = yield* domains.findVerified(Hostname.make("docs.example.com"))
            expect(
              Option.map(found, (domain) => [domain.account, domain.status, domain.ownership.required])
            ).toEqual(Option.some(["acct", "verified", false]))
            expect(yield* sql`select hostname from certificates`).toEqual([{ hostname: "docs.example.com" }])
            // The token the domain shows is the one the account gets for the name from now on.
            const ownership = yield* PgOwnershipRepository.make
            const token = yield* ownership.tokenFor(AccountName.make("acct"), "docs.example.com")
            expect(Option.map(found, (domain) => domain.ownership.value)).toEqual(
              Option.some(`petstore-verification=${token}`)
            )
          })
      )
    }
  )
}

for (const [name, client] of bothServers) {
  // A database of its own: webhooks as 0011 stored them (plain secrets, worded errors), then migrated.
  layer(Layer.merge(client, testCipher), { excludeTestServices: true, timeout: 120_000 })(
    `PgMigrations upgrade to safe webhooks on ${name}`,
    (it) => {
      it.effect(
        "migrating encrypts every plain secret (readable again with the cipher) and rewords errors as generic reasons",
        () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const cipher = yield* PrivateKeyCipher.PrivateKeyCipher
            const before = Object.fromEntries(
              Object.entries(PgMigrations.migrations(cipher)).filter(([key]) => key < "0014")
            )
            yield* Migrator.make({})({
              loader: Migrator.fromRecord(before),
              table: PgMigrations.migrationsTable
            })
            const secrets = [`whsec_${"A".repeat(43)}=`, `whsec_${"B".repeat(43)}=`]
            const ids = ["wh_aaaaaaaaaaaaaaaaaaaaaaaaaa", "wh_bbbbbbbbbbbbbbbbbbbbbbbbbb"]
            yield* sql`insert into projects (id, account, plan, created_at) values ('hooks', 'acct', 'pro', now())`
            for (const [n, id] of ids.entries()) {
              yield* sql`
                insert into webhooks (id, project_id, url, events, secret, created_at)
                values (${id}, 'hooks', 'https://hooks.example.com/in', null, ${secrets[n] ?? ""}, now())`
            }
            yield* sql`
              insert into domain_events (type, occurred_at, project_id, hostname, data)
              values ('domain.added', now(), 'hooks', 'docs.example.com', '{}'::jsonb)`
            const [event] = yield* sql<{ readonly id: string }>`select id::text as id from domain_events`
            const errors = [
              [503, "the receiver answered 503", "http_503"],
              [
                null,
                "hooks.example.com resolves to 10.0.0.7 (private): deliveries may not reach it",
                "refused_address"
              ],
              [null, "cannot resolve hooks.example.com: queryA ETIMEOUT hooks.example.com", "dns_error"],
              [null, "no answer within 10s", "timeout"],
              [null, "TLS failure: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)", "tls_error"],
              [null, "connect ECONNREFUSED 10.1.2.3:443", "connection_error"]
            ] as const
            yield* sql`
              insert into webhook_deliveries (webhook_id, event_id, hostname, attempts, first_attempt_at,
                next_attempt_at, status)
              values (${ids[0] ?? ""}, ${event?.id ?? ""}::bigint, 'docs.example.com', ${errors.length}, now(), now(), 'pending')`
            for (const [n, [httpStatus, error]] of errors.entries()) {
              yield* sql`
                insert into webhook_attempts (webhook_id, event_id, attempt, status, http_status, error, at)
                values (${ids[0] ?? ""}, ${event?.id ?? ""}::bigint, ${n + 1}, 'retrying', ${httpStatus}, ${error}, now())`
            }

            expect((yield* PgMigrations.run).map(([id]) => id)).toEqual(idsFrom(14))
            const stored = yield* sql<{ readonly id: string; readonly secret: string }>`
              select id, secret from webhooks order by id`
            for (const [n, row] of stored.entries()) {
              expect(row.secret).toMatch(/^v1\./)
              expect(row.secret).not.toContain(secrets[n]?.slice("whsec_".length, -1))
            }
            const webhooks = yield* Effect.provide(
              PgWebhookRepository.make,
              Layer.succeed(PrivateKeyCipher.PrivateKeyCipher, cipher)
            )
            for (const [n, id] of ids.entries()) {
              const found = yield* webhooks.find(ProjectId.make("hooks"), WebhookId.make(id))
              expect(Option.map(found, (webhook) => [webhook.secret, webhook.status])).toEqual(
                Option.some([secrets[n], "enabled"])
              )
            }
            const reasons = yield* sql<{ readonly error: string }>`
              select error from webhook_attempts order by attempt`
            expect(reasons.map(({ error }) => error)).toEqual(errors.map(([, , reason]) => reason))
            // What is stored from now on is checked as the domain would.
            const refused = yield* Effect.exit(sql`update webhooks set secret = ${secrets[0] ?? ""}`)
            expect(Exit.isFailure(refused)).toBe(true)
            const worded = yield* Effect.exit(
              sql`update webhook_attempts set error = 'connect ECONNREFUSED 10.0.0.1'`
            )
            expect(Exit.isFailure(worded)).toBe(true)
          })
      )
    }
  )
}
