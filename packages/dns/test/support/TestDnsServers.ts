/**
 * Real DNS servers on loopback for the resolver's tests, each started on free ports when its scope
 * opens and stopped when it closes:
 * - `pebble-challtestsrv`: records set through its HTTP management API. It never answers NXDOMAIN
 *   (an unknown name is an empty answer) and writes CAA flags as 0.
 * - `dnsmasq`: a fixed zone given on its command line, for NXDOMAIN, REFUSED, critical CAA records,
 *   TXT records of several strings, and a wildcard CNAME.
 * - a UDP socket that reads questions and never answers: a server that times out.
 * The servers come from `@petstore/testing` (a container when a container runtime answers, else
 * Debian's `pebble` and `dnsmasq-base`): when neither is there the tests fail with one line saying
 * what to install, never a skip.
 */
import { createSocket } from "node:dgram"
import { type LoopbackServer, TestChallengeServer, TestDnsServer } from "@petstore/testing"
import { Context, Data, Effect, Layer } from "effect"

/** A DNS test server that started but misbehaved (its management API, a socket). */
export class TestDnsServerError extends Data.TaggedError("TestDnsServerError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** What the layers fail with: their own errors, or the process's (not installed, not ready). */
export type TestDnsServersError = TestDnsServerError | LoopbackServer.LoopbackServerError

// ---------------------------------------------------------------------------------------------
// pebble-challtestsrv

export interface CaaPolicy {
  readonly tag: string
  readonly value: string
}

export class Challtestsrv extends Context.Service<
  Challtestsrv,
  {
    /** The DNS server, as `127.0.0.1:<port>`. */
    readonly server: string
    readonly addA: (host: string, addresses: ReadonlyArray<string>) => Effect.Effect<void, TestDnsServerError>
    readonly addAaaa: (
      host: string,
      addresses: ReadonlyArray<string>
    ) => Effect.Effect<void, TestDnsServerError>
    readonly setCname: (host: string, target: string) => Effect.Effect<void, TestDnsServerError>
    readonly addCaa: (
      host: string,
      policies: ReadonlyArray<CaaPolicy>
    ) => Effect.Effect<void, TestDnsServerError>
    readonly setTxt: (host: string, value: string) => Effect.Effect<void, TestDnsServerError>
    /** Removes every TXT record of `host`. */
    readonly clearTxt: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly setServfail: (host: string) => Effect.Effect<void, TestDnsServerError>
    /** Removes the A records of `host` (and its AAAA records, CNAME and SERVFAIL with the others). */
    readonly clearA: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly clearAaaa: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly clearCname: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly clearServfail: (host: string) => Effect.Effect<void, TestDnsServerError>
    readonly clearCaa: (host: string) => Effect.Effect<void, TestDnsServerError>
  }
>()("test/Challtestsrv") {}

const fqdn = (host: string): string => (host.endsWith(".") ? host : `${host}.`)

const startChalltestsrv = Effect.gen(function* () {
  const { dnsServer: server, managementUrl: management } = yield* TestChallengeServer.start

  const post = (path: string, body: object): Effect.Effect<void, TestDnsServerError> =>
    Effect.tryPromise({
      try: async () => {
        const response = await fetch(`${management}${path}`, { method: "POST", body: JSON.stringify(body) })
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
      },
      catch: (cause) =>
        new TestDnsServerError({
          message: `challtestsrv ${path} ${JSON.stringify(body)}: ${String(cause)}`,
          cause
        })
    })

  return Challtestsrv.of({
    server,
    addA: (host, addresses) => post("/add-a", { host: fqdn(host), addresses }),
    addAaaa: (host, addresses) => post("/add-aaaa", { host: fqdn(host), addresses }),
    setCname: (host, target) => post("/set-cname", { host: fqdn(host), target }),
    addCaa: (host, policies) => post("/add-caa", { host: fqdn(host), policies }),
    setTxt: (host, value) => post("/set-txt", { host: fqdn(host), value }),
    clearTxt: (host) => post("/clear-txt", { host: fqdn(host) }),
    setServfail: (host) => post("/set-servfail", { host: fqdn(host) }),
    clearA: (host) => post("/clear-a", { host: fqdn(host) }),
    clearAaaa: (host) => post("/clear-aaaa", { host: fqdn(host) }),
    clearCname: (host) => post("/clear-cname", { host: fqdn(host) }),
    clearServfail: (host) => post("/clear-servfail", { host: fqdn(host) }),
    clearCaa: (host) => post("/clear-caa", { host: fqdn(host) })
  })
})

/** pebble-challtestsrv on free loopback ports, for the scope of the layer. */
export const challtestsrvLayer: Layer.Layer<Challtestsrv, TestDnsServersError> = Layer.effect(
  Challtestsrv,
  startChalltestsrv
)

// ---------------------------------------------------------------------------------------------
// dnsmasq

/** A CAA record as dnsmasq's `--dns-rr` wants it: flags, tag length, tag, value, in hex. */
const caaHex = (flags: number, tag: string, value: string): string =>
  Buffer.concat([Buffer.from([flags, tag.length]), Buffer.from(tag), Buffer.from(value)]).toString("hex")

/** The zone dnsmasq serves: everything under `local.test` is known to it (others are refused). */
export const dnsmasqZone = {
  /** Local domain: a name under it without records is NXDOMAIN. */
  domain: "local.test",
  /** Has an A record only. */
  host: "host.local.test",
  hostAddress: "192.0.2.80",
  /** Has a critical CAA record with an unknown tag and a non-critical `issue`. */
  criticalCaa: "critical.local.test",
  /** Has one TXT record whose text is split over two character-strings. */
  splitTxt: "_petstore-challenge.split.local.test",
  splitTxtStrings: ["petstore-verification=", "0123456789abcdef0123456789abcdef"],
  /** Has two TXT records: one of a single string, one of three. */
  severalTxt: "several.local.test",
  severalTxtRecords: [["v=spf1 -all"], ["google-site-verification=", "abc", "def"]],
  /** Every name under it (`*.wild.local.test`) is a CNAME to `host`; itself has no record. */
  wildcardParent: "wild.local.test"
} as const

/**
 * dnsmasq's `--txt-record` for `name`: one character-string per comma-separated field. Quotes are
 * dnsmasq's only in a configuration file: on its command line they would be part of the text.
 */
const txtRecordOption = (name: string, strings: ReadonlyArray<string>): string =>
  `--txt-record=${name},${strings.join(",")}`

export class Dnsmasq extends Context.Service<Dnsmasq, { readonly server: string }>()("test/Dnsmasq") {}

const startDnsmasq = Effect.map(
  TestDnsServer.start([
    `--local=/${dnsmasqZone.domain}/`,
    `--host-record=${dnsmasqZone.host},${dnsmasqZone.hostAddress}`,
    `--dns-rr=${dnsmasqZone.criticalCaa},257,${caaHex(0x80, "tbs", "Unknown")}`,
    `--dns-rr=${dnsmasqZone.criticalCaa},257,${caaHex(0, "issue", "ca.example.net")}`,
    txtRecordOption(dnsmasqZone.splitTxt, dnsmasqZone.splitTxtStrings),
    ...dnsmasqZone.severalTxtRecords.map((strings) => txtRecordOption(dnsmasqZone.severalTxt, strings)),
    // dnsmasq (2.90) answers a wildcard `--cname` only in a zone it is authoritative for; with no
    // interface named, `--auth-server` serves that zone through the ordinary listener too.
    `--cname=*.${dnsmasqZone.wildcardParent},${dnsmasqZone.host}`,
    `--auth-zone=${dnsmasqZone.wildcardParent}`,
    `--auth-server=ns.${dnsmasqZone.domain}`
  ]),
  ({ server }) => Dnsmasq.of({ server })
)

/** dnsmasq on a free loopback port, for the scope of the layer. */
export const dnsmasqLayer: Layer.Layer<Dnsmasq, TestDnsServersError> = Layer.effect(Dnsmasq, startDnsmasq)

// ---------------------------------------------------------------------------------------------
// A server that never answers

export class SilentServer extends Context.Service<SilentServer, { readonly server: string }>()(
  "test/SilentServer"
) {}

/** A UDP socket on loopback that reads every question and answers none. */
export const silentServerLayer: Layer.Layer<SilentServer, TestDnsServerError> = Layer.effect(
  SilentServer,
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        new Promise<ReturnType<typeof createSocket>>((resolve, reject) => {
          const socket = createSocket("udp4")
          socket.once("error", reject)
          socket.on("message", () => {
            // read and ignored: this server times out
          })
          socket.bind(0, "127.0.0.1", () => resolve(socket))
        }),
      catch: (cause) =>
        new TestDnsServerError({ message: `cannot bind a UDP socket: ${String(cause)}`, cause })
    }),
    (socket) =>
      Effect.callback<void>((resume) => {
        socket.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((socket) => SilentServer.of({ server: `127.0.0.1:${socket.address().port}` })))
)
