/**
 * The domain's `WebhookSender` port on Node's HTTP clients. A delivery is a POST of the event's JSON,
 * signed per Standard Webhooks by the maintained `standardwebhooks` library, to an address this module
 * resolved and vetted itself: unless private addresses are allowed, a name with ANY address in a refused
 * range (loopback, private, link-local…, the domain's rule) is refused before a connection is opened, and
 * the connection goes to the vetted addresses only (the client's `lookup` answers with them), so a second,
 * different DNS answer between the check and the connection (DNS rebinding) cannot redirect it. Redirects
 * are never followed and one timeout bounds the whole exchange. Every outcome is a `SendOutcome` value:
 * the effect never fails.
 */
import { lookup as dnsLookup } from "node:dns/promises"
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http"
import { request as httpsRequest } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import {
  classifyAddress,
  type SendOutcome,
  validateWebhookUrl,
  type WebhookRequest,
  WebhookSender
} from "@petstore/custom-domains"
import { Thrown } from "@petstore/thrown"
import { Duration, Effect, Layer, Option, Result, Schema, SchemaParser } from "effect"
import { Webhook } from "standardwebhooks"

export interface Options {
  /**
   * Whether deliveries may reach loopback, private, link-local and other non-public addresses, and use
   * `http` URLs (tests, private deployments). Off in production.
   */
  readonly allowPrivate: boolean
  /** The bound on one whole delivery: resolving, connecting, TLS and the answer's status; 10 seconds by default. */
  readonly timeout?: Duration.Input | undefined
  /**
   * The certificates (PEM) trusted for `https` deliveries, INSTEAD of Node's bundled roots (a private CA,
   * a test's own); Node's roots when absent.
   */
  readonly ca?: string | ReadonlyArray<string> | undefined
  /**
   * Where a URL's name is resolved to its addresses (every one, IPv4 and IPv6): the system's resolver
   * (`node:dns` `lookup`, hosts file included) when absent. Its rejection means "cannot resolve".
   */
  readonly resolve?: ((hostname: string) => Promise<ReadonlyArray<string>>) | undefined
}

/** The production bound on one delivery (contract section 5). */
export const defaultTimeout: Duration.Duration = Duration.seconds(10)

// ---------------------------------------------------------------------------------------------
// Outcomes.

const delivered = (status: number): SendOutcome => ({ _tag: "Delivered", status })
const rejected = (status: number): SendOutcome => ({ _tag: "Rejected", status })
const unreachable = (reason: string): SendOutcome => ({ _tag: "Unreachable", reason })
const refused = (reason: string): SendOutcome => ({ _tag: "Refused", reason })

/** 2xx is delivered; anything else, a redirect included (never followed), is the receiver's rejection. */
const outcomeOfStatus = (status: number): SendOutcome =>
  status >= 200 && status <= 299 ? delivered(status) : rejected(status)

const NodeError = Schema.Struct({ code: Schema.String })
const decodeNodeError = SchemaParser.decodeUnknownResult(NodeError)

/** Node's error codes for a failed TLS handshake or certificate check (OpenSSL's `X509_V_ERR_*` names). */
const tlsErrorCode =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/

/**
 * What a failed exchange says, for the attempt's record: the message (each address's, when Node tried
 * several and all failed), marked as TLS when the handshake or the certificate was the problem.
 */
const describeFailure = (error: unknown): string => {
  const message =
    error instanceof AggregateError && error.errors.length > 0
      ? error.errors.map(Thrown.messageOf).join("; ")
      : Thrown.messageOf(error)
  const code = Result.match(decodeNodeError(error), { onFailure: () => "", onSuccess: ({ code }) => code })
  return tlsErrorCode.test(code) ? `TLS failure: ${message} (${code})` : message
}

// ---------------------------------------------------------------------------------------------
// Resolving and vetting.

interface Target {
  readonly url: URL
  /** The host without an IPv6 literal's brackets: what Node's clients and `isIP` take. */
  readonly host: string
}

/** An IP literal needs no lookup; a name is resolved to every address it has. */
const addressesOf = (
  target: Target,
  resolve: (hostname: string) => Promise<ReadonlyArray<string>>
): Effect.Effect<Result.Result<ReadonlyArray<string>, SendOutcome>> =>
  isIP(target.host) !== 0
    ? Effect.succeed(Result.succeed([target.host]))
    : Effect.tryPromise({ try: () => resolve(target.host), catch: (error) => error }).pipe(
        Effect.match({
          onFailure: (error) =>
            Result.fail(unreachable(`cannot resolve ${target.host}: ${describeFailure(error)}`)),
          onSuccess: (addresses) =>
            addresses.length === 0
              ? Result.fail(unreachable(`cannot resolve ${target.host}: no address`))
              : Result.succeed(addresses)
        })
      )

/** The first resolved address deliveries may not reach, described; none when all are public. */
const refusalOf = (host: string, addresses: ReadonlyArray<string>): Option.Option<string> => {
  for (const address of addresses) {
    const kind = classifyAddress(address)
    if (kind !== "public") {
      const subject = host === address ? address : `${host} resolves to ${address}`
      return Option.some(`${subject} (${kind}): deliveries may not reach it`)
    }
  }
  return Option.none()
}

/**
 * A `lookup` for Node's clients that answers with the vetted addresses and never asks DNS again: Node
 * connects to them (trying each in turn when there are several) while the URL's name stays the Host
 * header and the TLS server name.
 */
const pinnedLookup =
  (addresses: ReadonlyArray<string>): LookupFunction =>
  (_hostname, options, callback) => {
    const wanted = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0)
    const all = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter(({ family }) => wanted === 0 || family === wanted)
    const [first] = all
    if (first === undefined) {
      callback(
        Object.assign(new Error("no vetted address of the requested family"), { code: "ENOTFOUND" }),
        []
      )
    } else if (options.all === true) {
      callback(null, all)
    } else {
      callback(null, first.address, first.family)
    }
  }

// ---------------------------------------------------------------------------------------------
// The exchange.

interface Signed {
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
}

/** The request's headers, signed over `webhook-id.timestamp.body`; a secret the library rejects is a refusal. */
const sign = (request: WebhookRequest): Result.Result<Signed, SendOutcome> =>
  Result.try({
    try: () => new Webhook(request.secret).sign(request.webhookId, request.timestamp, request.body),
    catch: (error) => refused(`cannot sign with the webhook's secret: ${Thrown.messageOf(error)}`)
  }).pipe(
    Result.map((signature) => {
      const body = Buffer.from(request.body, "utf8")
      return {
        body,
        headers: {
          "content-type": "application/json",
          "content-length": String(body.byteLength),
          "webhook-id": request.webhookId,
          "webhook-timestamp": String(Math.floor(request.timestamp.getTime() / 1000)),
          "webhook-signature": signature
        }
      }
    })
  )

/**
 * One POST to the vetted addresses. The outcome is known from the status line, so the answer's body is
 * not read: the connection is closed then (no agent, nothing kept alive). Interrupting (the timeout)
 * destroys the request.
 */
const post = (
  target: Target,
  addresses: ReadonlyArray<string>,
  signed: Signed,
  ca: string | ReadonlyArray<string> | undefined
): Effect.Effect<SendOutcome> =>
  Effect.callback<SendOutcome>((resume) => {
    const secure = target.url.protocol === "https:"
    const options: RequestOptions & { servername?: string; ca?: string | Array<string> } = {
      method: "POST",
      host: target.host,
      ...(target.url.port === "" ? {} : { port: Number(target.url.port) }),
      path: `${target.url.pathname}${target.url.search}`,
      headers: { ...signed.headers, host: target.url.host },
      agent: false,
      lookup: pinnedLookup(addresses),
      ...(secure && isIP(target.host) === 0 ? { servername: target.host } : {}),
      ...(secure && ca !== undefined ? { ca: typeof ca === "string" ? ca : [...ca] } : {})
    }
    let settled = false
    const settle = (outcome: SendOutcome) => {
      if (settled) return
      settled = true
      resume(Effect.succeed(outcome))
    }
    // Node validates the options and headers as it builds the request (a line break in the id): nothing
    // is sent then.
    const created = Result.try({
      try: () => (secure ? httpsRequest : httpRequest)(options),
      catch: (error) => refused(`cannot send this request: ${Thrown.messageOf(error)}`)
    })
    if (Result.isFailure(created)) {
      settle(created.failure)
      return
    }
    const request = created.success
    request.on("response", (response: IncomingMessage) => {
      settle(outcomeOfStatus(response.statusCode ?? 0))
      response.destroy()
      request.destroy()
    })
    // Errors after the outcome (the connection closed on purpose) are ignored, but must be listened to.
    request.on("error", (error) => settle(unreachable(describeFailure(error))))
    request.end(signed.body)
    return Effect.sync(() => {
      settled = true
      request.destroy()
    })
  })

// ---------------------------------------------------------------------------------------------
// Construction.

const systemResolve = async (hostname: string): Promise<ReadonlyArray<string>> => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true })
  return answers.map(({ address }) => address)
}

const invalidOption = (message: string) => new Error(`NodeWebhookSender: ${message}`)

/** The timeout in milliseconds, or why it cannot be used. */
const timeoutMillis = (timeout: Duration.Input | undefined): Result.Result<number, Error> => {
  const millis = Option.match(Duration.fromInput(timeout ?? defaultTimeout), {
    onNone: () => Number.NaN,
    onSome: (duration) => Math.ceil(Duration.toMillis(duration))
  })
  return Number.isFinite(millis) && millis >= 1 && millis <= 2_147_483_647
    ? Result.succeed(millis)
    : Result.fail(invalidOption("timeout must be a finite, positive duration"))
}

/**
 * The sender; an unusable timeout is a defect (decode an operator's duration before). Each send checks
 * the URL again with the domain's rule (it may predate a change of `allowPrivate`), signs, resolves,
 * vets and posts, all within the timeout.
 */
export const make = (options: Options): Effect.Effect<WebhookSender["Service"]> =>
  Effect.gen(function* () {
    const millis = yield* Effect.orDie(Effect.fromResult(timeoutMillis(options.timeout)))
    const resolve = options.resolve ?? systemResolve
    const timeoutText = Duration.format(Duration.millis(millis))

    const deliver = (target: Target, signed: Signed): Effect.Effect<SendOutcome> =>
      Effect.gen(function* () {
        const addresses = yield* addressesOf(target, resolve)
        if (Result.isFailure(addresses)) return addresses.failure
        if (!options.allowPrivate) {
          const refusal = refusalOf(target.host, addresses.success)
          if (Option.isSome(refusal)) return refused(refusal.value)
        }
        return yield* post(target, addresses.success, signed, options.ca)
      }).pipe(
        Effect.timeoutOption(Duration.millis(millis)),
        Effect.map(Option.getOrElse(() => unreachable(`no answer within ${timeoutText}`)))
      )

    const send = (request: WebhookRequest): Effect.Effect<SendOutcome> =>
      Effect.gen(function* () {
        const url = validateWebhookUrl(request.url, { allowPrivate: options.allowPrivate })
        if (Result.isFailure(url)) return refused(`the URL ${url.failure}`)
        const signed = sign(request)
        if (Result.isFailure(signed)) return signed.failure
        const host = url.success.hostname.replace(/^\[(.*)\]$/, "$1")
        return yield* deliver({ url: url.success, host }, signed.success)
      }).pipe(
        Effect.withSpan(
          "NodeWebhookSender.send",
          { attributes: { webhookId: request.webhookId } },
          { captureStackTrace: false }
        )
      )

    return WebhookSender.of({ send })
  })

/** The `WebhookSender` port on Node's HTTP clients (see {@link make}). */
export const layer = (options: Options): Layer.Layer<WebhookSender> =>
  Layer.effect(WebhookSender, make(options))
