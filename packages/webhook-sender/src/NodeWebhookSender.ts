/**
 * The domain's `WebhookSender` port on Node's HTTP clients. A delivery is a POST of the event's JSON,
 * signed per Standard Webhooks by the maintained `standardwebhooks` library, to an address this module
 * resolved and vetted itself: unless private addresses are allowed, a name with ANY address in a refused
 * range (loopback, private, link-local…, the domain's rule) is refused before a connection is opened, and
 * the connection goes to the vetted addresses only (the client's `lookup` answers with them), so a second,
 * different DNS answer between the check and the connection (DNS rebinding) cannot redirect it. Redirects
 * are never followed and one timeout bounds the whole exchange. Every outcome is a `SendOutcome` value:
 * the effect never fails.
 *
 * Names are resolved by the domain's `DnsResolver` (c-ares with a timeout, on the configured servers),
 * never by `dns.lookup`: that runs on libuv's four-thread pool, which a few slow names would block for
 * the whole process (file system work included). An outcome says only a generic reason: the addresses
 * a name resolved to, and a resolver's or socket's message, stay here (the webhook's owner would read
 * them as a map of the platform's network).
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http"
import { request as httpsRequest } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { type DnsAnswer, DnsResolver } from "@petstore/domains"
import {
  classifyAddress,
  type SendOutcome,
  validateWebhookUrl,
  type WebhookRequest,
  WebhookSender
} from "@petstore/webhooks"
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
}

/** Where a URL's name is resolved to its addresses (every one, IPv4 and IPv6): a `DnsResolver`'s `addresses`. */
export type Resolve = (hostname: string) => Effect.Effect<DnsAnswer<string>>

/** The production bound on one delivery (contract section 5). */
export const defaultTimeout: Duration.Duration = Duration.seconds(10)

// ---------------------------------------------------------------------------------------------
// Outcomes.

type Reason = Extract<SendOutcome, { readonly _tag: "Unreachable" }>["reason"]

const delivered = (status: number): SendOutcome => ({ _tag: "Delivered", status })
const rejected = (status: number): SendOutcome => ({ _tag: "Rejected", status })
const unreachable = (reason: Reason): SendOutcome => ({ _tag: "Unreachable", reason })

/** 2xx is delivered; anything else, a redirect included (never followed), is the receiver's rejection. */
const outcomeOfStatus = (status: number): SendOutcome =>
  status >= 200 && status <= 299 ? delivered(status) : rejected(status)

const NodeError = Schema.Struct({ code: Schema.String })
const decodeNodeError = SchemaParser.decodeUnknownResult(NodeError)

/** Node's error codes for a failed TLS handshake or certificate check (OpenSSL's `X509_V_ERR_*` names). */
const tlsErrorCode =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/

/** Node's error codes for a connection that took too long to open. */
const timeoutCode = /^(ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/

/**
 * The generic reason a failed exchange is recorded with (each address's error, when Node tried several
 * and all failed: the TLS one wins, as it says the most): `tls_error` when the handshake or the
 * certificate was the problem, `timeout` when connecting took too long, else `connection_error`
 * (refused, reset, unreachable network).
 */
const reasonOf = (error: unknown): Reason => {
  const errors = error instanceof AggregateError && error.errors.length > 0 ? error.errors : [error]
  const codes = errors.map((each) =>
    Result.match(decodeNodeError(each), { onFailure: () => "", onSuccess: ({ code }) => code })
  )
  if (codes.some((code) => tlsErrorCode.test(code))) return "tls_error"
  if (codes.length > 0 && codes.every((code) => timeoutCode.test(code))) return "timeout"
  return "connection_error"
}

// ---------------------------------------------------------------------------------------------
// Resolving and vetting.

interface Target {
  readonly url: URL
  /** The host without an IPv6 literal's brackets: what Node's clients and `isIP` take. */
  readonly host: string
}

/** `localhost` and the names under it are loopback without asking DNS (RFC 6761, section 6.3). */
const isLocalhost = (host: string): boolean => /(^|\.)localhost\.?$/i.test(host)
const loopback: ReadonlyArray<string> = ["127.0.0.1", "::1"]

/**
 * An IP literal needs no lookup; a name is resolved to every address it has. No address, or a resolver
 * that fails (a timeout, SERVFAIL), is a `dns_error`; its detail is not kept.
 */
const addressesOf = (
  target: Target,
  resolve: Resolve
): Effect.Effect<Result.Result<ReadonlyArray<string>, SendOutcome>> => {
  if (isIP(target.host) !== 0) return Effect.succeed(Result.succeed([target.host]))
  if (isLocalhost(target.host)) return Effect.succeed(Result.succeed(loopback))
  return Effect.map(resolve(target.host), (answer) =>
    answer._tag === "Records" ? Result.succeed(answer.records) : Result.fail(unreachable("dns_error"))
  )
}

/** Whether any resolved address is one deliveries may not reach (the domain's rule). */
const anyRefused = (addresses: ReadonlyArray<string>): boolean =>
  addresses.some((address) => classifyAddress(address) !== "public")

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

/**
 * The request's headers, signed over `webhook-id.timestamp.body` with each secret (the signatures
 * space-separated, as Standard Webhooks allows, so that a receiver holding either verifies). A secret
 * the library rejects never comes from a store (each is checked as it is read); it is recorded as a
 * `connection_error`, nothing having been sent.
 */
const sign = (request: WebhookRequest): Result.Result<Signed, SendOutcome> =>
  Result.try({
    try: () => {
      if (request.secrets.length === 0) throw new Error("no secret to sign with")
      return request.secrets
        .map((secret) => new Webhook(secret).sign(request.webhookId, request.timestamp, request.body))
        .join(" ")
    },
    catch: () => unreachable("connection_error")
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
      catch: () => unreachable("connection_error")
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
    request.on("error", (error) => settle(unreachable(reasonOf(error))))
    request.end(signed.body)
    return Effect.sync(() => {
      settled = true
      request.destroy()
    })
  })

// ---------------------------------------------------------------------------------------------
// Construction.

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
 * The sender, resolving names with `resolve`; an unusable timeout is a defect (decode an operator's
 * duration before). Each send checks the URL again with the domain's rule (it may predate a change of
 * `allowPrivate`, or of the rule), signs, resolves, vets and posts, all within the timeout.
 */
export const make = (options: Options, resolve: Resolve): Effect.Effect<WebhookSender["Service"]> =>
  Effect.gen(function* () {
    const millis = yield* Effect.orDie(Effect.fromResult(timeoutMillis(options.timeout)))

    const deliver = (target: Target, signed: Signed): Effect.Effect<SendOutcome> =>
      Effect.gen(function* () {
        const addresses = yield* addressesOf(target, resolve)
        if (Result.isFailure(addresses)) return addresses.failure
        if (!options.allowPrivate && anyRefused(addresses.success)) return unreachable("refused_address")
        return yield* post(target, addresses.success, signed, options.ca)
      }).pipe(
        Effect.timeoutOption(Duration.millis(millis)),
        Effect.map(Option.getOrElse(() => unreachable("timeout")))
      )

    const send = (request: WebhookRequest): Effect.Effect<SendOutcome> =>
      Effect.gen(function* () {
        // A URL the rule refuses now (an IP literal in a refused range, mostly) opens no connection.
        const url = validateWebhookUrl(request.url, { allowPrivate: options.allowPrivate })
        if (Result.isFailure(url)) return unreachable("refused_address")
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

/** The `WebhookSender` port on Node's HTTP clients (see {@link make}), resolving with the `DnsResolver`. */
export const layer = (options: Options): Layer.Layer<WebhookSender, never, DnsResolver> =>
  Layer.effect(
    WebhookSender,
    Effect.flatMap(DnsResolver, (resolver) => make(options, resolver.addresses))
  )
