/**
 * The domain's `DnsResolver` port on Node's c-ares resolver (`node:dns/promises` `Resolver`). Every
 * answer Node gives is decoded with a Schema; every outcome, errors included, becomes a `DnsAnswer`
 * value: the effects never fail and nothing throws.
 */
import { Resolver } from "node:dns/promises"
import { isIPv4, isIPv6 } from "node:net"
import { CaaRecord, type DnsAnswer, DnsResolver } from "@petstore/domain"
import type { Context, Scope } from "effect"
import {
  Array as Arr,
  Config,
  ConfigError,
  Duration,
  Effect,
  Either,
  Layer,
  Option,
  ParseResult,
  Schema
} from "effect"
import { parseServer, parseServers } from "./DnsServers.js"

export interface Options {
  /** Servers as `host`, `host:port` or `[v6]:port` (see `DnsServers.parseServer`); default: the system's. */
  readonly servers?: ReadonlyArray<string>
  /** How long to wait for one server's answer to one try; default: Node's. */
  readonly timeout?: Duration.DurationInput
  /** How many times each server is asked before giving up; default: Node's (4). */
  readonly tries?: number
}

// ---------------------------------------------------------------------------------------------
// What Node answers, decoded.

/** A CNAME target as DNS names are compared: lower case, no trailing dot. */
const CnameTarget = Schema.transform(Schema.NonEmptyTrimmedString, Schema.String, {
  strict: true,
  decode: (name) => name.toLowerCase().replace(/\.$/, ""),
  encode: (name) => name
}).pipe(Schema.filter((name) => name !== "", { message: () => "a CNAME target must not be the root" }))

const IPv4Address = Schema.String.pipe(
  Schema.filter((address) => isIPv4(address), { message: (issue) => `${String(issue.actual)} is not IPv4` })
)

const IPv6Address = Schema.Lowercase.pipe(
  Schema.filter((address) => isIPv6(address), { message: (issue) => `${String(issue.actual)} is not IPv6` })
)

/**
 * Node's CAA record: `{ critical: <flags byte>, <tag>: <value> }`, e.g. `{ critical: 0, issue: "ca.example" }`;
 * the tag is a property name, whatever it is (`issue`, `issuewild`, `iodef`, `contactemail`, unknown
 * ones). Tags are matched case-insensitively (RFC 8659 §4.1), so they are lower-cased here.
 */
const NodeCaaObject = Schema.Struct(
  { critical: Schema.Int.pipe(Schema.between(0, 255)) },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

const NodeCaaRecord = Schema.transformOrFail(NodeCaaObject, CaaRecord, {
  strict: true,
  decode: (raw, _, ast) => {
    const [tagged, ...others] = Object.entries(raw).filter(([key]) => key !== "critical")
    if (tagged === undefined || others.length > 0 || typeof tagged[1] !== "string") {
      return ParseResult.fail(
        new ParseResult.Type(ast, raw, "a CAA record must have exactly one tag, with a string value")
      )
    }
    // The critical flag is the flags byte's most significant bit (RFC 8659 §4.1).
    return ParseResult.succeed({
      critical: (raw.critical & 0x80) !== 0,
      tag: tagged[0].toLowerCase(),
      value: tagged[1]
    })
  },
  encode: (record) =>
    ParseResult.succeed({ critical: record.critical ? 0x80 : 0, [record.tag]: record.value })
})

const NodeError = Schema.Struct({ code: Schema.String })

const CnameAnswer = Schema.Array(CnameTarget)
const IPv4Answer = Schema.Array(IPv4Address)
const IPv6Answer = Schema.Array(IPv6Address)
const CaaAnswer = Schema.Array(NodeCaaRecord)

// ---------------------------------------------------------------------------------------------
// From Node's outcomes to DnsAnswer values.

const noRecords = (reason: "nxdomain" | "nodata"): DnsAnswer<never> => ({ _tag: "NoRecords", reason })

/**
 * What a rejection of a `Resolver` query means: c-ares' error code decides. `ENODATA` and `ENOTFOUND`
 * are answers ("nothing of that type", "no such name"); the rest are failures to get one.
 */
export const fromNodeError = (error: unknown): DnsAnswer<never> => {
  const decoded = Schema.decodeUnknownEither(NodeError)(error)
  if (Either.isLeft(decoded)) {
    const detail = error instanceof Error ? error.message : String(error)
    return { _tag: "Failure", reason: "other", detail }
  }
  const code = decoded.right.code
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

const fromDecoded = <A>(decoded: Either.Either<ReadonlyArray<A>, ParseResult.ParseError>): DnsAnswer<A> =>
  Either.match(decoded, {
    onLeft: (error): DnsAnswer<A> => ({
      _tag: "Failure",
      reason: "other",
      detail: `unexpected answer from the resolver: ${ParseResult.TreeFormatter.formatErrorSync(error)}`
    }),
    onRight: (records): DnsAnswer<A> =>
      Arr.isNonEmptyReadonlyArray(records) ? { _tag: "Records", records } : noRecords("nodata")
  })

/** Runs one query; its result is decoded with `schema`, its rejection classified. */
const ask = <A, I>(
  query: () => Promise<unknown>,
  schema: Schema.Schema<ReadonlyArray<A>, I>
): Effect.Effect<DnsAnswer<A>> =>
  Effect.tryPromise({ try: () => query(), catch: (error) => error }).pipe(
    Effect.match({
      onFailure: fromNodeError,
      onSuccess: (raw) => fromDecoded(Schema.decodeUnknownEither(schema)(raw))
    })
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
  if (Arr.isNonEmptyReadonlyArray(records)) return { _tag: "Records", records }
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

/** Node's `{ timeout, tries }` and the checked servers, or why the options cannot be used. */
const resolverSettings = (
  options: Options
): Either.Either<{ timeout?: number; tries?: number; servers?: ReadonlyArray<string> }, Error> => {
  const settings: { timeout?: number; tries?: number; servers?: ReadonlyArray<string> } = {}
  if (options.timeout !== undefined) {
    const millis = Math.ceil(Duration.toMillis(options.timeout))
    if (!Number.isFinite(millis) || millis < 1 || millis > 2_147_483_647) {
      return Either.left(invalidOption("timeout must be a finite, positive duration"))
    }
    settings.timeout = millis
  }
  if (options.tries !== undefined) {
    if (!Number.isSafeInteger(options.tries) || options.tries < 1 || options.tries > 2_147_483_647) {
      return Either.left(invalidOption("tries must be a positive integer"))
    }
    settings.tries = options.tries
  }
  if (options.servers !== undefined) {
    if (options.servers.length === 0) {
      return Either.left(invalidOption("servers must not be empty (omit it to use the system's)"))
    }
    const parsed = Either.all(options.servers.map(parseServer))
    if (Either.isLeft(parsed)) return Either.left(invalidOption(`invalid DNS server: ${parsed.left}`))
    settings.servers = parsed.right
  }
  return Either.right(settings)
}

/**
 * A resolver on its own c-ares channel, cancelled when the scope closes. Options that cannot work
 * (an invalid server, a zero timeout) are a defect: check `PETSTORE_DNS_SERVERS` with
 * `DnsServers.parseServers` first.
 */
export const make = (
  options: Options = {}
): Effect.Effect<Context.Tag.Service<DnsResolver>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const settings = yield* Effect.orDie(resolverSettings(options))
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
      ask(() => resolver.resolveCname(name), CnameAnswer).pipe(
        Effect.map(dedupeRecords),
        Effect.withSpan("NodeDnsResolver.cname", { attributes: { name }, captureStackTrace: false })
      )

    const addresses = (name: string): Effect.Effect<DnsAnswer<string>> =>
      Effect.all(
        [ask(() => resolver.resolve4(name), IPv4Answer), ask(() => resolver.resolve6(name), IPv6Answer)],
        {
          concurrency: 2
        }
      ).pipe(
        Effect.map(([ipv4, ipv6]) => combineAddresses(ipv4, ipv6)),
        Effect.withSpan("NodeDnsResolver.addresses", { attributes: { name }, captureStackTrace: false })
      )

    const caa = (name: string): Effect.Effect<DnsAnswer<CaaRecord>> =>
      ask(() => resolver.resolveCaa(name), CaaAnswer).pipe(
        Effect.withSpan("NodeDnsResolver.caa", { attributes: { name }, captureStackTrace: false })
      )

    return DnsResolver.of({ cname, addresses, caa })
  })

/** The `DnsResolver` port on a Node resolver built with `options` (see {@link make}). */
export const layer = (options: Options = {}): Layer.Layer<DnsResolver> =>
  Layer.scoped(DnsResolver, make(options))

/**
 * The resolver as configured by the environment: `PETSTORE_DNS_SERVERS` (comma-separated `host:port`,
 * default the system's), `PETSTORE_DNS_TIMEOUT` (per try, default 2 seconds) and `PETSTORE_DNS_TRIES`
 * (default 2). Invalid values fail the configuration, naming the variable.
 */
export const optionsConfig: Config.Config<Options> = Config.all({
  servers: Config.string("PETSTORE_DNS_SERVERS").pipe(
    Config.mapOrFail((text) =>
      Either.mapLeft(parseServers(text), (rule) => ConfigError.InvalidData([], rule))
    ),
    Config.option
  ),
  timeout: Config.duration("PETSTORE_DNS_TIMEOUT").pipe(Config.withDefault(Duration.seconds(2))),
  tries: Config.integer("PETSTORE_DNS_TRIES").pipe(
    Config.validate({ message: "must be an integer from 1 to 10", validation: (n) => n >= 1 && n <= 10 }),
    Config.withDefault(2)
  )
}).pipe(
  Config.map(({ servers, timeout, tries }) =>
    Option.match(servers, {
      onNone: () => ({ timeout, tries }),
      onSome: (list) => ({ servers: list, timeout, tries })
    })
  )
)

export const layerConfig: Layer.Layer<DnsResolver, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(optionsConfig, layer)
)
