/**
 * The edge keeps its decisions in memory on the storage the API process runs on, and still stops
 * serving at once. On PostgreSQL, a change another process makes reaches it only through migration
 * 0008's triggers and the connection that listens for them: a change made with triggers off is not
 * seen (the name is served from memory), an announced one is, at the next handshake and request
 * within two seconds; while the listening connection is lost, storage is read again. On the
 * embedded database, a removal through the process's own repositories is refused at the very next
 * handshake and request. The edge and the storage are built exactly as the API builds them.
 */
import * as PgConnection from "@effect/sql-pg/PgConnection"
import { expect, layer } from "@effect/vitest"
import { LocalCertificateAuthority } from "@petstore/acme"
import { CertificateStore } from "@petstore/certificates"
import { addDomain, removeDomain } from "@petstore/custom-domains"
import { CustomDomain, CustomDomainRepository, PlatformSettings } from "@petstore/domains"
import { EdgeServer } from "@petstore/edge"
import * as EdgeClient from "@petstore/edge/testing"
import { AccountName } from "@petstore/kernel"
import { writtenDomain } from "@petstore/ownership"
import { createProject, ProjectId, recordProjectDeploy } from "@petstore/projects"
import { PgServingChanges } from "@petstore/store-pg"
import { eventually, TestDatabase } from "@petstore/testing"
import { Effect, Layer, Redacted, type Scope } from "effect"
import { storageLayer } from "../src/Storage.js"
import { temporaryDirectory } from "./support/temporaryDirectory.js"

const account = AccountName.make("edge-changes")

const platform = Layer.succeed(PlatformSettings, {
  platformDomain: "docs.edge-changes.test",
  cnameTarget: "cname.edge-changes.test",
  caIdentifier: "letsencrypt.org"
})

/** The edge on 127.0.0.1 over `storage`, with the storage, and a local CA to issue certificates. */
const edgeOn = <E>(storage: Layer.Layer<Layer.Success<ReturnType<typeof storageLayer>>, E>) =>
  EdgeServer.layer({ host: "127.0.0.1", httpPort: 0, httpsPort: 0 }).pipe(
    Layer.provideMerge(Layer.merge(storage, platform)),
    Layer.merge(LocalCertificateAuthority.layer())
  )

/** A verified domain of a deployed Pro project, with a certificate from the local CA. */
const servedDomain = (id: string, name: string) =>
  Effect.gen(function* () {
    const projectId = ProjectId.make(id)
    yield* createProject(account, projectId, "pro")
    yield* recordProjectDeploy(account, projectId, "succeeded")
    const domain = yield* addDomain(account, projectId, name)
    const verified = new CustomDomain({ ...domain, status: "verified" })
    yield* Effect.flatMap(CustomDomainRepository, (domains) => domains.update(verified))
    const authority = yield* LocalCertificateAuthority.LocalCertificateAuthority
    const issued = yield* authority.issue(domain.hostname)
    const kept = yield* Effect.flatMap(CertificateStore, (certificates) =>
      certificates.save(writtenDomain(verified), issued)
    )
    if (!kept) return yield* Effect.die(new Error(`the certificate of ${domain.hostname} was not kept`))
    return { projectId, hostname: domain.hostname, ca: authority.rootCertificatePem }
  })

const ports = Effect.map(EdgeServer.EdgeAddresses, (addresses) => ({
  http: addresses.http.port,
  https: addresses.https.port
}))

/** Whether the edge serves `hostname` now: a new TLS connection, and a request over HTTP. */
const servedNow = (hostname: string, ca: string) =>
  Effect.gen(function* () {
    const port = yield* ports
    const overHttps = yield* EdgeClient.handshake(port.https, ca, hostname)
    const overHttp = yield* EdgeClient.http(port.http, { host: hostname })
    return { handshake: overHttps._tag, http: overHttp.status }
  })

const served = { handshake: "Accepted", http: 301 }
const refused = { handshake: "Refused", http: 404 }

const otherConnection = (url: string): Effect.Effect<PgConnection.PgConnection, unknown, Scope.Scope> =>
  PgConnection.make({ url: Redacted.make(url) })

/** A statement run with triggers off for the session: nothing announces it. */
const unannounced = (
  other: PgConnection.PgConnection,
  statement: string,
  parameters: ReadonlyArray<string>
) =>
  Effect.andThen(
    other.query("set session_replication_role = replica"),
    Effect.ensuring(
      other.query(statement, parameters),
      Effect.ignore(other.query("reset session_replication_role"))
    )
  )

/** The server process that LISTENs for the edge's changes on this database. */
const listenerPids = (other: PgConnection.PgConnection) =>
  Effect.map(
    other.query(
      `select pid from pg_stat_activity
       where datname = current_database() and query ilike 'listen %${PgServingChanges.changesChannel}%'`
    ),
    (result) => result.rows.map((row) => Number(row.pid))
  )

const onPostgres = Layer.unwrap(
  Effect.gen(function* () {
    const database = yield* TestDatabase.TestDatabase
    const dataDir = yield* temporaryDirectory
    return edgeOn(storageLayer({ _tag: "Postgres", url: Redacted.make(database.url), dataDir }))
  })
).pipe(Layer.provideMerge(TestDatabase.layer))

layer(onPostgres, { excludeTestServices: true, timeout: 60_000 })("the edge on PostgreSQL", (it) => {
  it.effect(
    "hears another process's removal through the triggers alone, at the next handshake and request",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestDatabase.TestDatabase
        const other = yield* otherConnection(url)
        const { hostname, ca } = yield* servedDomain("pg-removed", "docs.pg-removed.com")
        expect(yield* eventually(servedNow(hostname, ca), (now) => now.handshake === "Accepted")).toEqual(
          served
        )
        // Listening: from now on, what is served comes from memory.
        yield* eventually(listenerPids(other), (pids) => pids.length === 1)
        expect(yield* servedNow(hostname, ca)).toEqual(served)

        // Unannounced, the project's fall to the free plan is not seen: the name is served from memory.
        yield* unannounced(other, "update projects set plan = 'free' where id = $1", ["pg-removed"])
        expect(yield* servedNow(hostname, ca)).toEqual(served)
        // Announced, the domain's removal is.
        yield* other.query("delete from custom_domains where hostname = $1", [hostname])
        expect(yield* eventually(servedNow(hostname, ca), (now) => now.handshake === "Refused")).toEqual(
          refused
        )
      })
  )

  it.effect("hears another process's downgrade of a project to the free plan", () =>
    Effect.gen(function* () {
      const { url } = yield* TestDatabase.TestDatabase
      const other = yield* otherConnection(url)
      const { hostname, ca } = yield* servedDomain("pg-free", "docs.pg-free.com")
      yield* eventually(listenerPids(other), (pids) => pids.length === 1)
      expect(yield* servedNow(hostname, ca)).toEqual(served)
      yield* other.query("update projects set plan = 'free' where id = $1", ["pg-free"])
      expect(yield* eventually(servedNow(hostname, ca), (now) => now.handshake === "Refused")).toEqual(
        refused
      )
    })
  )

  it.effect(
    "reads storage while its listening connection is lost, and starts afresh when it listens again",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestDatabase.TestDatabase
        const other = yield* otherConnection(url)
        const { hostname, ca } = yield* servedDomain("pg-lost", "docs.pg-lost.com")
        const [pid] = yield* eventually(listenerPids(other), (pids) => pids.length === 1)
        expect(yield* servedNow(hostname, ca)).toEqual(served)
        yield* other.query("select pg_terminate_backend($1)", [String(pid)])
        // Nothing announces this change: it is seen because nothing kept from before is served.
        yield* unannounced(other, "delete from custom_domains where hostname = $1", [hostname])
        expect(yield* eventually(servedNow(hostname, ca), (now) => now.handshake === "Refused")).toEqual(
          refused
        )
        yield* eventually(listenerPids(other), (pids) => pids.length === 1 && pids[0] !== pid)
      })
  )
})

/** How many times the edge looked a hostname up in storage. */
const hostnameLookups = { count: 0 }

/** The embedded storage, its hostname lookups counted. */
const countedEmbedded = Layer.unwrap(
  Effect.map(temporaryDirectory, (dataDir) =>
    Layer.effect(
      CustomDomainRepository,
      Effect.map(CustomDomainRepository, (domains) =>
        CustomDomainRepository.of({
          ...domains,
          findVerified: (hostname) =>
            Effect.andThen(
              Effect.sync(() => {
                hostnameLookups.count++
              }),
              domains.findVerified(hostname)
            )
        })
      )
    ).pipe(Layer.provideMerge(storageLayer({ _tag: "Embedded", dataDir })))
  )
)

const onEmbedded = edgeOn(countedEmbedded)

layer(onEmbedded, { excludeTestServices: true, timeout: 60_000 })(
  "the edge on the embedded database",
  (it) => {
    it.effect(
      "refuses a domain removed through the process's own storage at the very next handshake and request",
      () =>
        Effect.gen(function* () {
          const { projectId, hostname, ca } = yield* servedDomain(
            "embedded-removed",
            "docs.embedded-removed.com"
          )
          const before = hostnameLookups.count
          expect(yield* servedNow(hostname, ca)).toEqual(served)
          const decided = hostnameLookups.count
          expect(decided).toBeGreaterThan(before)
          // Decided once, the name is served from memory.
          expect(yield* servedNow(hostname, ca)).toEqual(served)
          expect(hostnameLookups.count).toBe(decided)
          yield* removeDomain(account, projectId, hostname)
          expect(yield* servedNow(hostname, ca)).toEqual(refused)
        })
    )
  }
)
