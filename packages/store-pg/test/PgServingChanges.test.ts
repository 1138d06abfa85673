/**
 * What the edge hears of changes on PostgreSQL. Every change that can change serving is announced
 * on `edge_changes` by migration 0008's triggers (and nothing that cannot, such as a check's
 * bookkeeping). Through `PgStore`'s `ServingChanges`: on a server, listeners are told changes are not
 * heard until its connection listens, then hear the changes another connection makes, and are told
 * again when that connection is lost; the store's own repositories (certificates included) announce
 * their changes before they return. On the embedded database, changes are heard from the start and
 * nothing listens.
 */
import type * as PgClient from "@effect/sql-pg/PgClient"
import * as PgConnection from "@effect/sql-pg/PgConnection"
import { describe, expect, layer } from "@effect/vitest"
import { CertificateStore } from "@petstore/certificates"
import { applyVerdict, CustomDomain, CustomDomainRepository } from "@petstore/domains"
import { defaultLimits } from "@petstore/kernel"
import { writtenDomain } from "@petstore/ownership"
import { Project, ProjectRepository } from "@petstore/projects"
import { DomainConfig, DomainConfigRepository, type ServingChange, ServingChanges } from "@petstore/serving"
import { ContractFixtures, eventually, TestDatabase } from "@petstore/testing"
import { Effect, Layer, Option, Queue, Redacted, type Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { EmbeddedPostgres, PgMigrations, PgServingChanges, PgStore, PrivateKeyCipher } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

const otherConnection = (url: string): Effect.Effect<PgConnection.PgConnection, unknown, Scope.Scope> =>
  PgConnection.make({ url: Redacted.make(url) })

/** What a subscriber heard, in order: changes, and `true`/`false` for hearing. */
const subscribed = Effect.gen(function* () {
  const heard: Array<ServingChange | boolean> = []
  const changes = yield* ServingChanges
  yield* changes.subscribe({ changed: (change) => heard.push(change), hearing: (now) => heard.push(now) })
  return heard
})

const storeOn = <E, R>(client: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E, R>) =>
  Layer.mergeAll(PgStore.layer, PgStore.certificatesLayer).pipe(
    Layer.provide(PgMigrations.layer),
    Layer.provideMerge(client),
    Layer.provide(PrivateKeyCipher.layer(Redacted.make("test secret for PgServingChanges")))
  )

const serverStore = storeOn(
  Layer.unwrap(
    Effect.map(TestDatabase.TestDatabase, (database) => PgStore.clientLayer({ url: database.url }))
  )
).pipe(Layer.provideMerge(TestDatabase.layer))

const hostnameChange = (hostname: string): ServingChange => ({ _tag: "Hostname", hostname })
const projectChange = (projectId: string): ServingChange => ({ _tag: "Project", projectId })

/** Writes through the store's repositories, each followed by `check` of the change it must announce. */
const ownWrites = <E, R>(check: (expected: ServingChange) => Effect.Effect<void, E, R>) =>
  Effect.gen(function* () {
    const projects = yield* ProjectRepository
    const configs = yield* DomainConfigRepository
    const domains = yield* CustomDomainRepository
    const certificates = yield* CertificateStore
    const project = yield* ContractFixtures.freshProject()
    yield* projects.insert(project, defaultLimits)
    yield* check(projectChange(project.id))
    const domain = yield* ContractFixtures.newDomainOf(project, yield* ContractFixtures.freshHostname())
    yield* domains.insert(domain, defaultLimits)
    yield* check(hostnameChange(domain.hostname))
    const verified = applyVerdict(domain, { _tag: "Verified", problems: [] }, ContractFixtures.t0)
    expect(yield* domains.update(verified)).toBe(true)
    yield* check(hostnameChange(domain.hostname))
    yield* certificates.save(writtenDomain(verified), yield* ContractFixtures.freshCertificate())
    yield* check(hostnameChange(domain.hostname))
    const lease = { holder: "serving-changes", until: ContractFixtures.later(ContractFixtures.t0, 120_000) }
    const claimed = yield* domains.claimDue(ContractFixtures.later(ContractFixtures.t0, 60_000), 1_000, lease)
    const checked = claimed.filter((due) => due.hostname === domain.hostname)
    expect(checked).toHaveLength(1)
    yield* domains.completeChecks(
      checked.map((due) => ({ claimed: due, result: new CustomDomain({ ...due, status: "verified" }) })),
      lease.holder
    )
    yield* check(hostnameChange(domain.hostname))
    yield* domains.update(new CustomDomain({ ...domain, status: "failed" }))
    yield* check(hostnameChange(domain.hostname))
    yield* projects.update(new Project({ ...project, plan: "free" }))
    yield* check(projectChange(project.id))
    yield* configs.save(project.id, new DomainConfig({ primary: domain.hostname, redirects: [] }))
    yield* check(projectChange(project.id))
    yield* certificates.remove(domain.hostname)
    yield* check(hostnameChange(domain.hostname))
    yield* domains.remove(project.id, domain.hostname)
    yield* check(hostnameChange(domain.hostname))
  })

layer(serverStore, { excludeTestServices: true, timeout: 60_000 })("serving changes on PostgreSQL", (it) => {
  it.effect("every change that can change serving is announced, and only those", () =>
    Effect.gen(function* () {
      const { url } = yield* TestDatabase.TestDatabase
      const listening = yield* otherConnection(url)
      const other = yield* otherConnection(url)
      const notifications = yield* listening.listen(PgServingChanges.changesChannel)
      const announced = (count: number) =>
        Effect.map(
          Effect.forEach(Array.from({ length: count }), () => Queue.take(notifications)),
          (all) => all.map((notification) => notification.payload)
        )
      const nothingMore = Effect.gen(function* () {
        // A statement of a change that is announced, to see that nothing came before it.
        yield* other.query("update projects set plan = plan where id = 'marker'")
        expect(yield* announced(1)).toEqual(["project:marker"])
      })
      yield* other.query(
        "insert into projects (id, account, plan, created_at) values ('marker', 'a', 'pro', now())"
      )
      expect(yield* announced(1)).toEqual(["project:marker"])

      yield* other.query(
        "insert into projects (id, account, plan, created_at) values ('p1', 'a', 'pro', now())"
      )
      expect(yield* announced(1)).toEqual(["project:p1"])
      yield* other.query("update projects set plan = 'free' where id = 'p1'")
      expect(yield* announced(1)).toEqual(["project:p1"])
      yield* other.query(`update projects set domain_config = '{"primary":"x"}'::jsonb where id = 'p1'`)
      expect(yield* announced(1)).toEqual(["project:p1"])

      yield* other.query(`
        insert into custom_domains (hostname, project_id, account, kind, status, dns_record, ownership,
          verification_deadline, verification_problems, certificate, created_at, apex)
        values ('docs.one.com', 'p1', 'a', 'subdomain', 'pending', '{}', '{}', now(), '[]', '{}', now(),
          'one.com')`)
      expect(yield* announced(1)).toEqual(["hostname:docs.one.com"])
      // A check's bookkeeping and a lease decide nothing served.
      yield* other.query(`
        update custom_domains set verification_last_checked_at = now(), verification_problems = '[{}]',
          lease_holder = 'w', lease_until = now() where hostname = 'docs.one.com'`)
      yield* nothingMore
      yield* other.query("update custom_domains set status = 'verified' where hostname = 'docs.one.com'")
      expect(yield* announced(1)).toEqual(["hostname:docs.one.com"])

      yield* other.query(`
        insert into certificates (hostname, certificate_pem, chain_pem, private_key_encrypted, not_after)
        values ('docs.one.com', 'c', '', 'v1.x', now())`)
      expect(yield* announced(1)).toEqual(["hostname:docs.one.com"])
      yield* other.query("update certificates set certificate_pem = 'd' where hostname = 'docs.one.com'")
      expect(yield* announced(1)).toEqual(["hostname:docs.one.com"])
      // Another account's domain of the same hostname is announced by that hostname too.
      yield* other.query(
        "insert into projects (id, account, plan, created_at) values ('p3', 'b', 'pro', now())"
      )
      expect(yield* announced(1)).toEqual(["project:p3"])
      yield* other.query(`
        insert into custom_domains (hostname, project_id, account, kind, status, dns_record, ownership,
          verification_deadline, verification_problems, certificate, created_at, apex)
        values ('docs.one.com', 'p3', 'b', 'subdomain', 'pending', '{}', '{}', now(), '[]', '{}', now(),
          'one.com')`)
      expect(yield* announced(1)).toEqual(["hostname:docs.one.com"])

      // Nothing before the change commits.
      yield* other.query("begin")
      yield* other.query("delete from custom_domains where hostname = 'docs.one.com'")
      expect(yield* Queue.poll(notifications)).toEqual(Option.none())
      yield* other.query("commit")
      // Both accounts' domains, and the verified one's certificate (one notification: PostgreSQL folds
      // duplicates).
      expect(yield* announced(1)).toEqual(["hostname:docs.one.com"])
      yield* nothingMore

      yield* other.query("delete from projects where id = 'p1'")
      expect(yield* announced(1)).toEqual(["project:p1"])
      yield* other.query("truncate certificates")
      expect(yield* announced(1)).toEqual([""])
    })
  )

  it.effect("a subscriber hears nothing until the store listens, then what another connection changes", () =>
    Effect.gen(function* () {
      const { url } = yield* TestDatabase.TestDatabase
      const other = yield* otherConnection(url)
      const heard = yield* subscribed
      expect(heard[0]).toBe(false)
      yield* eventually(
        Effect.sync(() => heard.includes(true)),
        (yes) => yes
      )
      yield* other.query(
        "insert into projects (id, account, plan, created_at) values ('p2', 'a', 'pro', now())"
      )
      yield* eventually(
        Effect.sync(() => heard),
        (all) => all.some((change) => typeof change === "object" && change._tag === "Project")
      )
      expect(heard.slice(-1)).toEqual([projectChange("p2")])
      expect(PgServingChanges.changeOf("")).toEqual({ _tag: "Everything" })
      expect(PgServingChanges.changeOf("other:x")).toEqual({ _tag: "Everything" })
    })
  )

  it.effect("the store's own writes are heard, certificates included", () =>
    Effect.gen(function* () {
      const heard = yield* subscribed
      yield* ownWrites((expected) => Effect.sync(() => expect(heard).toContainEqual(expected)))
    })
  )
})

const embeddedStore = Layer.unwrap(
  Effect.map(temporaryDirectory, (dataDirectory) => storeOn(EmbeddedPostgres.clientLayer({ dataDirectory })))
)

describe("serving changes on the embedded database", () => {
  layer(embeddedStore, { excludeTestServices: true, timeout: 120_000 })("in process", (it) => {
    it.effect("are heard from the start, and the store's own writes announced before they return", () =>
      Effect.gen(function* () {
        const heard = yield* subscribed
        expect(heard).toEqual([true])
        const domain = yield* ContractFixtures.verifiedStoredDomain()
        yield* Effect.flatMap(CertificateStore, (store) =>
          Effect.flatMap(ContractFixtures.freshCertificate(), (certificate) =>
            store.save(domain, certificate)
          )
        )
        // The project, the domain added, verified, then its certificate.
        expect(heard).toEqual([
          true,
          projectChange(domain.projectId),
          hostnameChange(domain.hostname),
          hostnameChange(domain.hostname),
          hostnameChange(domain.hostname)
        ])
      })
    )
  })
})
