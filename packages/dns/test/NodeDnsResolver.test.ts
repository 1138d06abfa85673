/**
 * NodeDnsResolver against real DNS servers on loopback, started for this file: pebble-challtestsrv
 * for records set per test, dnsmasq for NXDOMAIN, REFUSED, critical CAA and TXT records of several
 * strings, a UDP socket that never answers for timeouts, and a closed port for "connection refused".
 */
import { randomBytes } from "node:crypto"
import { createSocket } from "node:dgram"
import { describe, expect, it, layer } from "@effect/vitest"
import { CaaRecord, type DnsAnswer, DnsResolver } from "@petstore/domains"
import { Cause, type Context, Duration, Effect, Exit, Layer, Result } from "effect"
import { NodeDnsResolver } from "../src/index.js"
import {
  Challtestsrv,
  challtestsrvLayer,
  Dnsmasq,
  dnsmasqLayer,
  dnsmasqZone,
  SilentServer,
  silentServerLayer
} from "./support/TestDnsServers.js"

const platformTarget = "sites.platform.test"

const resolverOn = <I, S extends { readonly server: string }>(
  tag: Context.Key<I, S>,
  options: NodeDnsResolver.Options
) => Layer.unwrap(Effect.map(tag, ({ server }) => NodeDnsResolver.layer({ ...options, servers: [server] })))

const records = <A>(...values: readonly [A, ...Array<A>]): DnsAnswer<A> => ({
  _tag: "Records",
  records: values
})
const nodata: DnsAnswer<never> = { _tag: "NoRecords", reason: "nodata" }
const nxdomain: DnsAnswer<never> = { _tag: "NoRecords", reason: "nxdomain" }
const failure = (reason: "timeout" | "servfail" | "refused" | "other", detail: string): DnsAnswer<never> => ({
  _tag: "Failure",
  reason,
  detail
})

/** The four questions the port asks, for one name. */
const askAll = (name: string) =>
  Effect.flatMap(DnsResolver, (resolver) =>
    Effect.all({
      cname: resolver.cname(name),
      addresses: resolver.addresses(name),
      txt: resolver.txt(name),
      caa: resolver.caa(name)
    })
  )

const sorted = (answer: DnsAnswer<string>): DnsAnswer<string> =>
  answer._tag === "Records"
    ? {
        _tag: "Records",
        records: [...answer.records].sort() as unknown as readonly [string, ...Array<string>]
      }
    : answer

const sortedByTag = (answer: DnsAnswer<CaaRecord>): DnsAnswer<CaaRecord> =>
  answer._tag === "Records"
    ? {
        _tag: "Records",
        records: [...answer.records].sort((a, b) => a.tag.localeCompare(b.tag)) as unknown as readonly [
          CaaRecord,
          ...Array<CaaRecord>
        ]
      }
    : answer

const onChalltestsrv = resolverOn(Challtestsrv, { timeout: Duration.seconds(2), tries: 2 }).pipe(
  Layer.provideMerge(challtestsrvLayer)
)

layer(onChalltestsrv, { excludeTestServices: true })("NodeDnsResolver on pebble-challtestsrv", (it) => {
  describe("cname", () => {
    it.effect("a CNAME to the platform target comes back lower case, without the trailing dot", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.setCname("docs.right.test", "Sites.Platform.TEST.")
        const resolver = yield* DnsResolver
        expect(yield* resolver.cname("docs.right.test")).toStrictEqual(records(platformTarget))
      })
    )

    it.effect("a CNAME to another target is returned as found", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.setCname("docs.elsewhere.test", "pages.other-host.example.")
        const resolver = yield* DnsResolver
        expect(yield* resolver.cname("docs.elsewhere.test")).toStrictEqual(
          records("pages.other-host.example")
        )
      })
    )

    it.effect("an A record where the CNAME should be: no CNAME (NODATA), the address is visible", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.addA("docs.blocked.test", ["192.0.2.7"])
        expect(yield* askAll("docs.blocked.test")).toStrictEqual({
          cname: nodata,
          addresses: records("192.0.2.7"),
          txt: nodata,
          caa: nodata
        })
      })
    )
  })

  describe("addresses", () => {
    it.effect("an apex with A and AAAA records: their union, deduplicated", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.addA("apex.test", ["192.0.2.1", "192.0.2.2"])
        yield* server.addA("apex.test", ["192.0.2.1"])
        yield* server.addAaaa("apex.test", ["2001:DB8::1"])
        expect(yield* askAll("apex.test")).toStrictEqual({
          cname: nodata,
          addresses: records("192.0.2.1", "192.0.2.2", "2001:db8::1"),
          txt: nodata,
          caa: nodata
        })
      })
    )

    it.effect("IPv6 only (AAAA records, no A): the IPv6 addresses", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.addAaaa("v6only.test", ["2001:db8::6", "2001:db8:0:0:0:0:0:7"])
        const resolver = yield* DnsResolver
        expect(yield* resolver.addresses("v6only.test")).toStrictEqual(records("2001:db8::6", "2001:db8::7"))
      })
    )

    it.effect("follow the CNAME, as a resolver does: the target's addresses", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.addA("edge.platform.test", ["198.51.100.10"])
        yield* server.addAaaa("edge.platform.test", ["2001:db8::10"])
        yield* server.setCname("www.follows.test", "edge.platform.test.")
        expect(yield* askAll("www.follows.test")).toStrictEqual({
          cname: records("edge.platform.test"),
          addresses: records("198.51.100.10", "2001:db8::10"),
          txt: nodata,
          caa: nodata
        })
      })
    )
  })

  describe("no records and failures", () => {
    it.effect("a name with TXT records only is NODATA for the other three questions", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.setTxt("txt-only.test", "v=verification")
        expect(yield* askAll("txt-only.test")).toStrictEqual({
          cname: nodata,
          addresses: nodata,
          txt: records("v=verification"),
          caa: nodata
        })
      })
    )

    it.effect("SERVFAIL is a servfail failure for all four questions", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.setServfail("broken.test")
        const servfail = failure("servfail", "ESERVFAIL")
        expect(yield* askAll("broken.test")).toStrictEqual({
          cname: servfail,
          addresses: servfail,
          txt: servfail,
          caa: servfail
        })
      })
    )
  })

  describe("txt", () => {
    it.effect("an ownership record comes back as its value, exactly (case and spaces kept)", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        const value = "petstore-verification=0f1e2d3c4b5a69788796a5b4c3d2e1f0"
        yield* server.setTxt("_petstore-challenge.docs.owned.test", value)
        yield* server.setTxt("_petstore-challenge.docs.spaced.test", " Some Text, with a comma ")
        const resolver = yield* DnsResolver
        expect(yield* resolver.txt("_petstore-challenge.docs.owned.test")).toStrictEqual(records(value))
        expect(yield* resolver.txt("_petstore-challenge.docs.spaced.test")).toStrictEqual(
          records(" Some Text, with a comma ")
        )
        // Only the name asked: neither its parent nor a name under it has the record.
        expect(yield* resolver.txt("docs.owned.test")).toStrictEqual(nodata)
        expect(yield* resolver.txt("www._petstore-challenge.docs.owned.test")).toStrictEqual(nodata)
      })
    )

    it.effect("several records are several values", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.setTxt("_petstore-challenge.docs.many.test", "petstore-verification=old")
        yield* server.setTxt("_petstore-challenge.docs.many.test", "petstore-verification=new")
        const resolver = yield* DnsResolver
        expect(sorted(yield* resolver.txt("_petstore-challenge.docs.many.test"))).toStrictEqual(
          records("petstore-verification=new", "petstore-verification=old")
        )
      })
    )
  })

  describe("caa", () => {
    it.effect("reads the records at the name asked, parent and child alike, and never climbs", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.addCaa("caa-parent.test", [{ tag: "issue", value: "letsencrypt.org" }])
        yield* server.addCaa("shop.caa-parent.test", [
          { tag: "issue", value: "ca.example.net; validationmethods=http-01" },
          { tag: "issuewild", value: ";" },
          { tag: "iodef", value: "mailto:security@caa-parent.test" },
          { tag: "contactemail", value: "dns@caa-parent.test" },
          { tag: "tbs", value: "an unknown tag" }
        ])
        const resolver = yield* DnsResolver
        expect(yield* resolver.caa("caa-parent.test")).toStrictEqual(
          records(new CaaRecord({ critical: false, tag: "issue", value: "letsencrypt.org" }))
        )
        expect(yield* resolver.caa("shop.caa-parent.test")).toStrictEqual(
          records(
            new CaaRecord({
              critical: false,
              tag: "issue",
              value: "ca.example.net; validationmethods=http-01"
            }),
            new CaaRecord({ critical: false, tag: "issuewild", value: ";" }),
            new CaaRecord({ critical: false, tag: "iodef", value: "mailto:security@caa-parent.test" }),
            new CaaRecord({ critical: false, tag: "contactemail", value: "dns@caa-parent.test" }),
            new CaaRecord({ critical: false, tag: "tbs", value: "an unknown tag" })
          )
        )
        expect(yield* resolver.caa("www.shop.caa-parent.test")).toStrictEqual(nodata)
      })
    )

    it.effect("tags come back lower case (they match case-insensitively)", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.addCaa("caa-case.test", [{ tag: "IssueWild", value: "ca.example.net" }])
        const resolver = yield* DnsResolver
        expect(yield* resolver.caa("caa-case.test")).toStrictEqual(
          records(new CaaRecord({ critical: false, tag: "issuewild", value: "ca.example.net" }))
        )
      })
    )

    it.effect("follows a CNAME: the target's records count", () =>
      Effect.gen(function* () {
        const server = yield* Challtestsrv
        yield* server.addCaa("caa-target.platform.test", [{ tag: "issue", value: "ca.example.net" }])
        yield* server.setCname("docs.caa-alias.test", "caa-target.platform.test.")
        const resolver = yield* DnsResolver
        expect(yield* resolver.caa("docs.caa-alias.test")).toStrictEqual(
          records(new CaaRecord({ critical: false, tag: "issue", value: "ca.example.net" }))
        )
      })
    )
  })
})

const onDnsmasq = resolverOn(Dnsmasq, { timeout: Duration.seconds(2), tries: 2 }).pipe(
  Layer.provideMerge(dnsmasqLayer)
)

layer(onDnsmasq, { excludeTestServices: true })("NodeDnsResolver on dnsmasq", (it) => {
  it.effect("a name that does not exist is NXDOMAIN for all four questions", () =>
    Effect.gen(function* () {
      expect(yield* askAll(`missing.${dnsmasqZone.domain}`)).toStrictEqual({
        cname: nxdomain,
        addresses: nxdomain,
        txt: nxdomain,
        caa: nxdomain
      })
    })
  )

  it.effect("a name with an A record only: NODATA for CNAME, TXT and CAA, its address", () =>
    Effect.gen(function* () {
      expect(yield* askAll(dnsmasqZone.host)).toStrictEqual({
        cname: nodata,
        addresses: records(dnsmasqZone.hostAddress),
        txt: nodata,
        caa: nodata
      })
    })
  )

  it.effect("a TXT record split over several strings is one value, the strings joined", () =>
    Effect.gen(function* () {
      const resolver = yield* DnsResolver
      expect(yield* resolver.txt(dnsmasqZone.splitTxt)).toStrictEqual(
        records("petstore-verification=0123456789abcdef0123456789abcdef")
      )
    })
  )

  it.effect("several TXT records, of one string and of several, are one value each", () =>
    Effect.gen(function* () {
      const resolver = yield* DnsResolver
      expect(sorted(yield* resolver.txt(dnsmasqZone.severalTxt))).toStrictEqual(
        records("google-site-verification=abcdef", "v=spf1 -all")
      )
    })
  )

  it.effect("the critical flag of a CAA record, with an unknown tag next to issue", () =>
    Effect.gen(function* () {
      const resolver = yield* DnsResolver
      expect(sortedByTag(yield* resolver.caa(dnsmasqZone.criticalCaa))).toStrictEqual(
        records(
          new CaaRecord({ critical: false, tag: "issue", value: "ca.example.net" }),
          new CaaRecord({ critical: true, tag: "tbs", value: "Unknown" })
        )
      )
    })
  )

  it.effect("a wildcard CNAME answers for a random label under it: the CNAME, and the target's address", () =>
    Effect.gen(function* () {
      const label = `probe${randomBytes(8).toString("hex")}`
      const probe = `${label}.${dnsmasqZone.wildcardParent}`
      expect(yield* askAll(probe)).toStrictEqual({
        cname: records(dnsmasqZone.host),
        addresses: records(dnsmasqZone.hostAddress),
        txt: nodata,
        caa: nodata
      })
      // The wildcard covers the names under its parent, not the parent itself.
      const resolver = yield* DnsResolver
      expect(yield* resolver.cname(dnsmasqZone.wildcardParent)).toStrictEqual(nodata)
      expect(yield* resolver.cname(`${label}.other.${dnsmasqZone.domain}`)).toStrictEqual(nxdomain)
    })
  )

  it.effect("a server that refuses the question: a refused failure for all four questions", () =>
    Effect.gen(function* () {
      const refused = failure("refused", "EREFUSED")
      expect(yield* askAll("outside.example")).toStrictEqual({
        cname: refused,
        addresses: refused,
        txt: refused,
        caa: refused
      })
    })
  )
})

const onSilentServer = resolverOn(SilentServer, { timeout: Duration.millis(300), tries: 1 }).pipe(
  Layer.provideMerge(silentServerLayer)
)

layer(onSilentServer, { excludeTestServices: true })(
  "NodeDnsResolver on a server that never answers",
  (it) => {
    it.effect("a timeout failure for all four questions, once the timeout has passed", () =>
      Effect.gen(function* () {
        const started = Date.now()
        const timeout = failure("timeout", "ETIMEOUT")
        expect(yield* askAll("_petstore-challenge.docs.silent.test")).toStrictEqual({
          cname: timeout,
          addresses: timeout,
          txt: timeout,
          caa: timeout
        })
        const elapsed = Date.now() - started
        expect(elapsed).toBeGreaterThanOrEqual(250)
        expect(elapsed).toBeLessThan(5_000)
      })
    )
  }
)

/** A loopback UDP port nobody listens on (bound, then released). */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const socket = createSocket("udp4")
      socket.bind(0, "127.0.0.1", () => {
        const { port } = socket.address()
        socket.close(() => resolve(port))
      })
    })
)

const onClosedPort = Layer.unwrap(
  Effect.map(closedPort, (port) =>
    NodeDnsResolver.layer({ servers: [`127.0.0.1:${port}`], timeout: Duration.millis(300), tries: 1 })
  )
)

layer(onClosedPort, { excludeTestServices: true })("NodeDnsResolver with nothing listening", (it) => {
  it.effect("connection refused is a refused failure", () =>
    Effect.gen(function* () {
      const resolver = yield* DnsResolver
      const refused = failure("refused", "ECONNREFUSED")
      expect(yield* resolver.addresses("docs.nobody.test")).toStrictEqual(refused)
      expect(yield* resolver.txt("_petstore-challenge.docs.nobody.test")).toStrictEqual(refused)
    })
  )
})

describe("NodeDnsResolver options", () => {
  const defectOf = (options: NodeDnsResolver.Options) =>
    Effect.runPromise(Effect.exit(Effect.scoped(NodeDnsResolver.make(options)))).then((exit) => {
      if (Exit.isSuccess(exit)) throw new Error("expected the options to be refused")
      const defect = Result.getOrThrow(Cause.findDefect(exit.cause))
      return defect instanceof Error ? defect.message : String(defect)
    })

  it.each([
    ["a server with port 0 (which would abort Node)", { servers: ["127.0.0.1:0"] }, "port"],
    ["a host name as server", { servers: ["localhost:53"] }, "not an IP address"],
    ["an empty server list", { servers: [] }, "must not be empty"],
    ["a zero timeout", { timeout: Duration.zero }, "timeout"],
    ["an infinite timeout", { timeout: Duration.infinity }, "timeout"],
    ["zero tries", { tries: 0 }, "tries"],
    ["fractional tries", { tries: 1.5 }, "tries"]
  ] satisfies ReadonlyArray<[string, NodeDnsResolver.Options, string]>)(
    "refuses %s as a defect",
    async (_, options, words) => {
      expect(await defectOf(options)).toContain(words)
    }
  )

  it("accepts the system's servers and Node's defaults", async () => {
    const exit = await Effect.runPromise(Effect.exit(Effect.scoped(NodeDnsResolver.make())))
    expect(Exit.isSuccess(exit)).toBe(true)
  })
})
