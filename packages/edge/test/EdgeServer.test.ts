/**
 * The edge's life cycle and failures: a port in use is a typed error naming the listener, the
 * listeners close with their scope, and storage that fails gives 503 (and a refused handshake)
 * without a word of what went wrong.
 */
import { Agent } from "node:https"
import { createServer, type Server } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { CustomDomainRepository } from "@petstore/domains"
import { StorageError } from "@petstore/kernel"
import { ListenError } from "@petstore/node-listener"
import { MemoryStore } from "@petstore/store-memory"
import { Cause, Context, type Duration, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import { EdgeAddresses, layer as edgeLayer } from "../src/EdgeServer.js"
import { handshake, http, https, raw } from "./support/EdgeClient.js"
import {
  deployedProject,
  edgeOver,
  issueCertificate,
  loopbackOptions,
  settingsLayer,
  TestEdgeLive,
  trustedRoot,
  verifiedDomain
} from "./support/EdgeFixture.js"

/** A port held by another server for the test's scope. */
const occupiedPort = Effect.acquireRelease(
  Effect.callback<Server>((resume) => {
    const server = createServer()
    server.listen({ host: "127.0.0.1", port: 0 }, () => resume(Effect.succeed(server)))
  }),
  (server) =>
    Effect.callback<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
).pipe(
  Effect.map((server) => {
    const address = server.address()
    return typeof address === "object" && address !== null ? address.port : 0
  })
)

const stores = Layer.merge(MemoryStore.layer, settingsLayer)

describe("the edge's listeners", () => {
  it.effect("fail with a ListenError naming the listener when the HTTP port is in use", () =>
    Effect.gen(function* () {
      const port = yield* occupiedPort
      const exit = yield* Effect.exit(
        Layer.build(edgeLayer({ ...loopbackOptions, httpPort: port }).pipe(Layer.provide(stores)))
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const [reason, ...others] = exit.cause.reasons
        expect(others).toEqual([])
        const error = reason !== undefined && Cause.isFailReason(reason) ? reason.error : undefined
        expect(error).toBeInstanceOf(ListenError)
        expect(error?.listener).toBe("http")
        expect(error?.message).toBe(
          `the http listener cannot listen on 127.0.0.1:${port}: the port is already in use`
        )
      }
    })
  )

  it.effect("fail with a ListenError when the HTTPS port is in use, closing the HTTP listener again", () =>
    Effect.gen(function* () {
      const port = yield* occupiedPort
      const free = yield* occupiedPort.pipe(Effect.scoped)
      const error = yield* Layer.build(
        edgeLayer({ ...loopbackOptions, httpPort: free, httpsPort: port }).pipe(Layer.provide(stores))
      ).pipe(Effect.flip)
      expect(error.listener).toBe("https")
      expect(error.message).toContain("already in use")
      const refused = yield* Effect.flip(http(free, { host: "x.docs.test" }))
      expect(refused.message).toContain("ECONNREFUSED")
    })
  )

  it.effect("open when built and close when their scope closes", () =>
    Effect.gen(function* () {
      const addresses = yield* Effect.scoped(
        Effect.gen(function* () {
          const bound = Context.get(yield* Layer.build(TestEdgeLive), EdgeAddresses)
          expect(bound.http.host).toBe("127.0.0.1")
          expect(bound.https.host).toBe("127.0.0.1")
          expect(bound.http.port).toBeGreaterThan(0)
          expect(bound.https.port).toBeGreaterThan(0)
          expect(bound.https.port).not.toBe(bound.http.port)
          expect((yield* http(bound.http.port, { host: "nothing.example.com" })).status).toBe(404)
          return bound
        })
      )
      for (const port of [addresses.http.port, addresses.https.port]) {
        const refused = yield* Effect.flip(raw(port, ""))
        expect(refused.message).toContain("ECONNREFUSED")
      }
    })
  )
})

/** The in-memory domain repository, answering the edge's hostname lookups only after `delay`. */
const slowLookups = (delay: Duration.Input) =>
  Layer.effect(
    CustomDomainRepository,
    Effect.map(CustomDomainRepository, (domains) =>
      CustomDomainRepository.of({
        ...domains,
        findVerified: (hostname) => Effect.delay(domains.findVerified(hostname), delay)
      })
    )
  ).pipe(Layer.provideMerge(MemoryStore.layer))

describe("a shutdown", () => {
  it.live("lets a request in flight finish, then closes", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const bound = Context.get(
        yield* Layer.buildWithScope(edgeOver(slowLookups("700 millis")), scope),
        EdgeAddresses
      )
      const inFlight = yield* Effect.forkChild(http(bound.http.port, { host: "docs.unknown.com" }))
      yield* Effect.sleep("200 millis")
      yield* Scope.close(scope, Exit.void)
      const answer = yield* Fiber.join(inFlight)
      expect(answer.status).toBe(404)
      expect(answer.body).toBe("Not found\n")
      const refused = yield* Effect.flip(raw(bound.http.port, ""))
      expect(refused.message).toContain("ECONNREFUSED")
    })
  )
})

/** The in-memory domain repository, except that the edge's hostname lookup fails once `broken` is set. */
const failingLookups = (broken: { value: boolean }) =>
  Layer.effect(
    CustomDomainRepository,
    Effect.map(CustomDomainRepository, (domains) =>
      CustomDomainRepository.of({
        ...domains,
        findVerified: (hostname) =>
          broken.value
            ? Effect.fail(
                new StorageError({
                  operation: "findVerified",
                  cause: new Error("connection to db.internal:5432 refused")
                })
              )
            : domains.findVerified(hostname)
      })
    )
  )

describe("a storage failure", () => {
  it.effect("is 503 without detail on both listeners for a name not kept, and refuses new handshakes", () => {
    const broken = { value: false }
    const storage = failingLookups(broken).pipe(Layer.provideMerge(MemoryStore.layer))
    return Effect.gen(function* () {
      const { http: httpAddress, https: httpsAddress } = yield* EdgeAddresses
      const projectId = yield* deployedProject("fragile-docs")
      const hostname = yield* verifiedDomain(projectId, "docs.fragile.com")
      yield* issueCertificate(hostname)
      const ca = yield* trustedRoot
      const agent = yield* Effect.acquireRelease(
        Effect.sync(() => new Agent({ keepAlive: true, maxSockets: 1, ca: [ca] })),
        (agent) => Effect.sync(() => agent.destroy())
      )
      expect((yield* https(httpsAddress.port, { host: hostname, ca, agent })).status).toBe(200)

      const domains = yield* CustomDomainRepository
      const stored = yield* domains.findInProject(projectId, hostname)
      broken.value = true
      // A decision kept in memory is still answered: nothing concerning it has changed.
      expect((yield* https(httpsAddress.port, { host: hostname, ca, agent })).status).toBe(200)
      // A write (storage takes writes, only lookups fail) drops it: it must be looked up again.
      if (Option.isSome(stored)) yield* domains.update(stored.value)
      const overHttp = yield* http(httpAddress.port, { host: hostname, path: "/page" })
      const overHttps = yield* https(httpsAddress.port, { host: hostname, ca, agent })
      for (const answer of [overHttp, overHttps]) {
        expect(answer.status).toBe(503)
        expect(answer.headers["content-type"]).toMatch(/^text\/plain/)
        expect(answer.body).not.toMatch(/db\.internal|findVerified|refused|StorageError/)
      }
      expect(overHttps.reusedSocket).toBe(true)
      expect((yield* handshake(httpsAddress.port, ca, hostname))._tag).toBe("Refused")

      broken.value = false
      expect((yield* handshake(httpsAddress.port, ca, hostname))._tag).toBe("Accepted")
    }).pipe(Effect.provide(edgeOver(storage)))
  })
})
