/**
 * The domain's `DnsResolver` port on Node's c-ares resolver (`node:dns/promises` `Resolver`). Every
 * answer Node gives is decoded with a Schema; every outcome, errors included, becomes a `DnsAnswer`
 * value: the effects never fail and nothing throws.
 */
import { Resolver } from "node:dns/promises"
import { isIPv4, isIPv6 } from "node:net"
import { CaaRecord, type DnsAnswer, DnsName, DnsResolver } from "@petstore/domains"
import { Thrown } from "@petstore/thrown"
import type { Scope } from "effect"
import {
  Array as Arr,
  Duration,
  Effect,
  Layer,
  Option,
  Result,
  Schema,
  SchemaGetter,
  SchemaIssue,
  SchemaParser,
  SchemaTransformation
} from "effect"
import { parseServer } from "./DnsServers.js"

export interface Options {
  /** Servers as `host`, `host:port` or `[v6]:port` (see `DnsServers.parseServer`); default: the system's. */
  readonly servers?: ReadonlyArray<string> | undefined
  /** How long to wait for one server's answer to one try; default: Node's. */
  readonly timeout?: Duration.Input | undefined
  /** How many times each server is asked before giving up; default: Node's (4). */
  readonly tries?: number | undefined
}

// ---------------------------------------------------------------------------------------------
// What Node answers, decoded.

/** A CNAME target as DNS names are compared (`DnsName.normalise`): lower case, no trailing dot. */
const CnameTarget = Schema.Trimmed.check(Schema.isNonEmpty()).pipe(
  Schema.decodeTo(
    Schema.String.check(Schema.isNonEmpty({ message: "a CNAME target must not be the root" })),
    DnsName.normalising
  )
)

const IPv4Address = Schema.String.check(
  Schema.makeFilter((address) => isIPv4(address) || `${address} is not IPv4`)
)

const IPv6Address = Schema.String.pipe(
  Schema.decodeTo(
    Schema.String.check(
      Schema.isLowercased(),
      Schema.makeFilter((address) => isIPv6(address) || `${address} is not IPv6`)
    ),
    SchemaTransformation.toLowerCase()
  )
)

/**
 * Node's CAA record: `{ critical: <flags byte>, <tag>: <value> }`, e.g. `{ critical: 0, issue: "ca.example" }`;
 * the tag is a property name, whatever it is (`issue`, `issuewild`, `iodef`, `contactemail`, unknown
 * ones). Tags are matched case-insensitively (RFC 8659 §4.1), so they are lower-cased here.
 */
const NodeCaaObject = Schema.StructWithRest(
  Schema.Struct({ critical: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 })) }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)

const NodeCaaRecord = NodeCaaObject.pipe(
  Schema.decodeTo(CaaRecord, {
    decode: SchemaGetter.transformEffect((raw) => {
      const [tagged, ...others] = Object.entries(raw).filter(([key]) => key !== "critical")
      if (tagged === undefined || others.length > 0 || typeof tagged[1] !== "string") {
        return Effect.fail(
          new SchemaIssue.InvalidValue({
            message: "a CAA record must have exactly one tag, with a string value"
          })
        )
      }
      // The critical flag is the flags byte's most significant bit (RFC 8659 §4.1).
      return Effect.succeed({
        critical: (raw.critical & 0x80) !== 0,
        tag: tagged[0].toLowerCase(),
        value: tagged[1]
      })
    }),
    encode: SchemaGetter.transform((record) => ({
      critical: record.critical ? 0x80 : 0,
      [record.tag]: record.value
    }))
  })
)

/**
 * Node's TXT record: its character-strings, each at most 255 bytes on the wire, so a longer text is
 * split over several; joined, they are the one value the record holds (RFC 7208 §3.3 reads them so).
 */
const NodeTxtRecord = Schema.Array(Schema.String).pipe(
  Schema.decodeTo(Schema.String, {
    decode: SchemaGetter.transform((strings) => strings.join("")),
    encode: SchemaGetter.transform((value) => [value])
  })
)

const NodeError = Schema.Struct({ code: Schema.String })

/** Decoders compiled once: every lookup runs one. */
const formatIssue = SchemaIssue.makeFormatterDefault()
const decodeNodeError = SchemaParser.decodeUnknownResult(NodeError)
const decodeCnames = SchemaParser.decodeUnknownResult(Schema.Array(CnameTarget))
const decodeIPv4 = SchemaParser.decodeUnknownResult(Schema.Array(IPv4Address))
const decodeIPv6 = SchemaParser.decodeUnknownResult(Schema.Array(IPv6Address))
const decodeCaa = SchemaParser.decodeUnknownResult(Schema.Array(NodeCaaRecord))
const decodeTxt = SchemaParser.decodeUnknownResult(Schema.Array(NodeTxtRecord))

// ---------------------------------------------------------------------------------------------
// From Node's outcomes to DnsAnswer values.

const noRecords = (reason: "nxdomain" | "nodata"): DnsAnswer<never> => ({ _tag: "NoRecords", reason })

/**
 * What a rejection of a `Resolver` query means: c-ares' error code decides. `ENODATA` and `ENOTFOUND`
 * are answers ("nothing of that type", "no such name"); the rest are failures to get one.
 */
export const fromNodeError = (error: unknown): DnsAnswer<never> => {
  const decoded = decodeNodeError(error)
  if (Result.isFailure(decoded)) {
    return { _tag: "Failure", reason: "other", detail: Thrown.messageOf(error) }
  }
  const code = decoded.success.code
  switch (code) {
    case "ENODATA":
      return noRecords("nodata")
    case "ENOTFOUND":
      return noRecords("nxdomain")
    case "ETIMEOUT":
      return { _tag: "Failure", reason: "timeout", detail: code }
    case "ESERVFAIL":
      return { _tag: "Failure", reason: "servfail", detail: code }
    case "EREFUSED":
    case "ECONNREFUSED":
      return { _tag: "Failure", reason: "refused", detail: code }
    default:
      return { _tag: "Failure", reason: "other", detail: code }
  }
}

const fromDecoded = <A>(decoded: Result.Result<ReadonlyArray<A>, SchemaIssue.Issue>): DnsAnswer<A> =>
  Result.match(decoded, {
    onFailure: (issue): DnsAnswer<A> => ({
      _tag: "Failure",
      reason: "other",
      detail: `unexpected answer from the resolver: ${formatIssue(issue)}`
    }),
    onSuccess: (records): DnsAnswer<A> =>
      Arr.isReadonlyArrayNonEmpty(records) ? { _tag: "Records", records } : noRecords("nodata")
  })

/**
 * Runs one query; its result is decoded with `decode`, its rejection classified, both in the promise:
 * a name without records (every wildcard probe, most address lookups) is an answer, not a failure the
 * runtime would build a cause for and then match away.
 */
const ask = <A>(
  query: () => Promise<unknown>,
  decode: (raw: unknown) => Result.Result<ReadonlyArray<A>, SchemaIssue.Issue>
): Effect.Effect<DnsAnswer<A>> =>
  Effect.promise(() =>
    // A query that throws at once (a name Node refuses) is classified like one that rejects.
    new Promise<unknown>((resolve) => resolve(query())).then(
      (raw) => fromDecoded(decode(raw)),
      (error: unknown) => fromNodeError(error)
    )
  )

const recordsOf = <A>(answer: DnsAnswer<A>): ReadonlyArray<A> =>
  answer._tag === "Records" ? answer.records : []

/**
 * The answer for "the addresses of a name" from its A and AAAA answers: every address either gave
 * (deduplicated); else, when either could not be asked, that failure (the other half may exist);
 * else no records: `nxdomain` when both say the name does not exist, `nodata` otherwise.
 */
export const combineAddresses = (ipv4: DnsAnswer<string>, ipv6: DnsAnswer<string>): DnsAnswer<string> => {
  const records = Arr.dedupe([...recordsOf(ipv4), ...recordsOf(ipv6)])
  if (Arr.isReadonlyArrayNonEmpty(records)) return { _tag: "Records", records }
  if (ipv4._tag === "Failure") return ipv4
  if (ipv6._tag === "Failure") return ipv6
  const bothNxdomain =
    ipv4._tag === "NoRecords" &&
    ipv4.reason === "nxdomain" &&
    ipv6._tag === "NoRecords" &&
    ipv6.reason === "nxdomain"
  return noRecords(bothNxdomain ? "nxdomain" : "nodata")
}

const dedupeRecords = (answer: DnsAnswer<string>): DnsAnswer<string> =>
  answer._tag === "Records" ? { _tag: "Records", records: Arr.dedupe(answer.records) } : answer

// ---------------------------------------------------------------------------------------------
// Construction.

const invalidOption = (message: string) => new Error(`NodeDnsResolver: ${message}`)

interface Settings {
  timeout?: number
  tries?: number
  servers?: ReadonlyArray<string>
}

/** Node's `{ timeout, tries }` and the checked servers, or why the options cannot be used. */
const resolverSettings = (options: Options): Result.Result<Settings, Error> => {
  const settings: Settings = {}
  if (options.timeout !== undefined) {
    const millis = Option.match(Duration.fromInput(options.timeout), {
      onNone: () => Number.NaN,
      onSome: (duration) => Math.ceil(Duration.toMillis(duration))
    })
    if (!Number.isFinite(millis) || millis < 1 || millis > 2_147_483_647) {
      return Result.fail(invalidOption("timeout must be a finite, positive duration"))
    }
    settings.timeout = millis
  }
  if (options.tries !== undefined) {
    if (!Number.isSafeInteger(options.tries) || options.tries < 1 || options.tries > 2_147_483_647) {
      return Result.fail(invalidOption("tries must be a positive integer"))
    }
    settings.tries = options.tries
  }
  if (options.servers !== undefined) {
    if (options.servers.length === 0) {
      return Result.fail(invalidOption("servers must not be empty (omit it to use the system's)"))
    }
    const parsed = Result.all(options.servers.map(parseServer))
    if (Result.isFailure(parsed)) return Result.fail(invalidOption(`invalid DNS server: ${parsed.failure}`))
    settings.servers = parsed.success
  }
  return Result.succeed(settings)
}

/**
 * A resolver on its own c-ares channel, cancelled when the scope closes. Options that cannot work
 * (an invalid server, a zero timeout) are a defect: decode a server list an operator wrote with
 * `DnsServers.ServerList` first.
 */
export const make = (options: Options = {}): Effect.Effect<DnsResolver["Service"], never, Scope.Scope> =>
  Effect.gen(function* () {
    const settings = yield* Effect.orDie(Effect.fromResult(resolverSettings(options)))
    const resolver = yield* Effect.acquireRelease(
      Effect.try({
        try: () => {
          const created = new Resolver({
            ...(settings.timeout === undefined ? {} : { timeout: settings.timeout }),
            ...(settings.tries === undefined ? {} : { tries: settings.tries })
          })
          if (settings.servers !== undefined) created.setServers(settings.servers)
          return created
        },
        catch: (cause) => invalidOption(`cannot create the resolver: ${String(cause)}`)
      }).pipe(Effect.orDie),
      (created) => Effect.sync(() => created.cancel())
    )

    // Spans without a stack trace: capturing one costs an Error per lookup, and the name says where.
    const cname = (name: string): Effect.Effect<DnsAnswer<string>> =>
      ask(() => resolver.resolveCname(name), decodeCnames).pipe(
        Effect.map(dedupeRecords),
        Effect.withSpan("NodeDnsResolver.cname", { attributes: { name } }, { captureStackTrace: false })
      )

    const addresses = (name: string): Effect.Effect<DnsAnswer<string>> =>
      Effect.all(
        [ask(() => resolver.resolve4(name), decodeIPv4), ask(() => resolver.resolve6(name), decodeIPv6)],
        {
          concurrency: 2
        }
      ).pipe(
        Effect.map(([ipv4, ipv6]) => combineAddresses(ipv4, ipv6)),
        Effect.withSpan("NodeDnsResolver.addresses", { attributes: { name } }, { captureStackTrace: false })
      )

    const txt = (name: string): Effect.Effect<DnsAnswer<string>> =>
      ask(() => resolver.resolveTxt(name), decodeTxt).pipe(
        Effect.withSpan("NodeDnsResolver.txt", { attributes: { name } }, { captureStackTrace: false })
      )

    const caa = (name: string): Effect.Effect<DnsAnswer<CaaRecord>> =>
      ask(() => resolver.resolveCaa(name), decodeCaa).pipe(
        Effect.withSpan("NodeDnsResolver.caa", { attributes: { name } }, { captureStackTrace: false })
      )

    return DnsResolver.of({ cname, addresses, txt, caa })
  })

/** The `DnsResolver` port on a Node resolver built with `options` (see {@link make}). */
export const layer = (options: Options = {}): Layer.Layer<DnsResolver> =>
  Layer.effect(DnsResolver, make(options))
