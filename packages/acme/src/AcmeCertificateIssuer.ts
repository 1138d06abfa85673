/**
 * The domain's `CertificateIssuer` on an ACME CA (RFC 8555) through `acme-client`, with HTTP-01
 * challenges: `startOrder` opens the order and publishes each token's key authorization in the
 * domain's `Http01ChallengeStore` before telling the CA to validate; `pollOrder` reads the order, sends
 * the CSR once it is ready and downloads the certificate once it is valid, returning it with the key
 * behind the CSR.
 *
 * The order ref is the order URL. The private key of each CSR is kept in memory (by order URL), so a
 * repeated poll of a valid order returns it again; a process restart between finalize and download
 * loses it, and polling such an order then fails with CertificateIssuerError, so the caller starts a
 * new one. The CA's HTTPS endpoint is trusted through NODE_EXTRA_CA_CERTS in production.
 */

import {
  CertificateIssuer,
  CertificateIssuerError,
  Http01ChallengeStore,
  type OrderState
} from "@petstore/certificates"
import type { Hostname } from "@petstore/domains"
import { OrderRef } from "@petstore/domains"
import type { StorageError } from "@petstore/kernel"
import { Thrown } from "@petstore/thrown"
import * as acme from "acme-client"
import { Clock, Effect, Layer, Redacted, Semaphore } from "effect"
import { OrderKeys } from "./internal/OrderKeys.js"

export interface Options {
  /** The ACME directory, e.g. `https://acme-v02.api.letsencrypt.org/directory`. */
  readonly directoryUrl: string
  /** Contact for the ACME account (`mailto:` is added). */
  readonly email?: string
  /** The account key (PEM); a fresh key (and so a fresh account) when absent. */
  readonly accountKeyPem?: Redacted.Redacted<string> | string
}

/**
 * How long the key of a finalized order is kept. The worker downloads a certificate within seconds of
 * its order turning valid and retries a failed download or save within minutes; a key needed after a
 * day belongs to an order the worker has given up on (it starts a new one).
 */
const orderKeyRetentionMillis = 24 * 60 * 60 * 1000

/** A new ACME account key (PEM), to be kept. */
export const createAccountKey = (): Promise<string> =>
  acme.crypto.createPrivateKey().then((key) => key.toString())

/** The `detail` (or the whole object) of an ACME problem document. */
const problemDetail = (problem: unknown): string | undefined => {
  if (problem === undefined || problem === null) return undefined
  if (typeof problem === "object" && "detail" in problem) {
    const { detail } = problem
    const type = "type" in problem ? problem.type : undefined
    if (typeof detail === "string" && detail !== "") {
      return typeof type === "string" ? `${detail} (${type})` : detail
    }
  }
  return Thrown.messageOf(problem)
}

export const make = (
  options: Options
): Effect.Effect<CertificateIssuer["Service"], CertificateIssuerError, Http01ChallengeStore> =>
  Effect.gen(function* () {
    const challenges = yield* Http01ChallengeStore
    const { directoryUrl } = options

    /** The challenge store's failures, as the issuer's own. */
    const stored = <A>(step: string, effect: Effect.Effect<A, StorageError>) =>
      Effect.mapError(
        effect,
        (error) =>
          new CertificateIssuerError({
            message: `cannot ${step} in the HTTP-01 challenge store: ${error.message}`
          })
      )

    const call = <A>(step: string, run: () => Promise<A>): Effect.Effect<A, CertificateIssuerError> =>
      Effect.tryPromise({
        try: run,
        catch: (cause) =>
          new CertificateIssuerError({
            message: `ACME ${step} failed (${directoryUrl}): ${Thrown.messageOf(cause)}`
          })
      })

    const accountKey =
      options.accountKeyPem === undefined
        ? yield* call("account key generation", () => acme.crypto.createPrivateKey())
        : Redacted.isRedacted(options.accountKeyPem)
          ? Redacted.value(options.accountKeyPem)
          : options.accountKeyPem

    const client = new acme.Client({ directoryUrl, accountKey })

    // The account is registered once, on first use (a failure is retried on the next call).
    let registered = false
    const semaphore = yield* Semaphore.make(1)
    const ensureAccount = semaphore.withPermits(1)(
      Effect.suspend(() =>
        registered
          ? Effect.void
          : call("account registration", () =>
              client.createAccount({
                termsOfServiceAgreed: true,
                ...(options.email === undefined ? {} : { contact: [`mailto:${options.email}`] })
              })
            ).pipe(
              Effect.tap(() =>
                Effect.sync(() => {
                  registered = true
                })
              )
            )
      )
    )

    const privateKeys = new OrderKeys(orderKeyRetentionMillis)

    /** The key behind the CSR of `order`: known only to the process that finalized it. */
    const keyOf = (order: acme.Order): Effect.Effect<Redacted.Redacted<string>, CertificateIssuerError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const key = privateKeys.get(order.url, now)
        return key === undefined
          ? Effect.fail(
              new CertificateIssuerError({
                message: `ACME order ${order.url} was finalized with a key this process does not have (lost in a restart?): start a new order`
              })
            )
          : Effect.succeed(key)
      })

    /** An order known only by its URL: enough for `getOrder`. */
    const orderAt = (ref: OrderRef): acme.Order => ({ url: ref }) as unknown as acme.Order

    const httpChallenges = (authorizations: ReadonlyArray<acme.Authorization>) =>
      authorizations.flatMap((authorization) =>
        authorization.challenges.flatMap((challenge) =>
          challenge.type === "http-01" ? [{ authorization, challenge }] : []
        )
      )

    const startOrder = (hostname: Hostname): Effect.Effect<OrderRef, CertificateIssuerError> =>
      Effect.gen(function* () {
        yield* ensureAccount
        const order = yield* call(`order creation for ${hostname}`, () =>
          client.createOrder({ identifiers: [{ type: "dns", value: hostname }] })
        )
        const authorizations = yield* call(`authorizations of ${hostname}`, () =>
          client.getAuthorizations(order)
        )
        for (const authorization of authorizations) {
          if (authorization.status === "valid") continue
          const challenge = authorization.challenges.find((candidate) => candidate.type === "http-01")
          if (challenge === undefined) {
            return yield* new CertificateIssuerError({
              message: `ACME CA (${directoryUrl}) offers no http-01 challenge for ${authorization.identifier.value}`
            })
          }
          const keyAuthorization = yield* call(`key authorization for ${hostname}`, () =>
            client.getChallengeKeyAuthorization(challenge)
          )
          if (challenge.type === "http-01") {
            yield* stored(
              `publish a token for ${hostname}`,
              challenges.put(challenge.token, keyAuthorization)
            )
          }
          yield* call(`challenge completion for ${hostname}`, () => client.completeChallenge(challenge))
        }
        return OrderRef.make(order.url)
      })

    /** Takes the published tokens down and explains an invalid order, from its authorizations. */
    const settle = (order: acme.Order): Effect.Effect<string | undefined, CertificateIssuerError> =>
      Effect.gen(function* () {
        const authorizations = yield* call("authorizations", () => client.getAuthorizations(order))
        const published = httpChallenges(authorizations)
        for (const { challenge } of published) {
          if (challenge.type === "http-01") {
            yield* stored("remove a token", challenges.remove(challenge.token))
          }
        }
        const failures = published.flatMap(({ authorization, challenge }) => {
          const detail = problemDetail(challenge.error)
          return detail === undefined ? [] : [`${authorization.identifier.value}: ${detail}`]
        })
        return failures.length === 0 ? undefined : failures.join("; ")
      })

    const download = (order: acme.Order): Effect.Effect<OrderState, CertificateIssuerError> =>
      Effect.gen(function* () {
        const privateKeyPem = yield* keyOf(order)
        const fullChain = yield* call("certificate download", () => client.getCertificate(order))
        const [certificatePem, ...chain] = acme.crypto.splitPemChain(fullChain)
        if (certificatePem === undefined) {
          return yield* new CertificateIssuerError({
            message: `ACME CA (${directoryUrl}) returned no certificate for ${order.url}`
          })
        }
        const info = yield* Effect.try({
          try: () => acme.crypto.readCertificateInfo(certificatePem),
          catch: (cause) =>
            new CertificateIssuerError({
              message: `ACME CA (${directoryUrl}) returned an unreadable certificate: ${Thrown.messageOf(cause)}`
            })
        })
        yield* settle(order).pipe(Effect.ignore)
        return {
          _tag: "Valid" as const,
          certificatePem,
          chainPem: chain.join("\n"),
          privateKeyPem,
          notBefore: info.notBefore,
          notAfter: info.notAfter
        }
      })

    const finalize = (order: acme.Order): Effect.Effect<OrderState, CertificateIssuerError> =>
      Effect.gen(function* () {
        const hostname = order.identifiers[0]?.value
        if (hostname === undefined) {
          return yield* new CertificateIssuerError({ message: `ACME order ${order.url} has no identifier` })
        }
        const [key, csr] = yield* call(`CSR creation for ${hostname}`, () =>
          acme.crypto.createCsr({ commonName: hostname, altNames: [hostname] })
        )
        privateKeys.add(order.url, Redacted.make(key.toString()), yield* Clock.currentTimeMillis)
        const finalized = yield* call(`finalization of ${hostname}`, () => client.finalizeOrder(order, csr))
        return yield* describeOrder({ ...order, ...finalized, url: order.url }, false)
      })

    const describeOrder = (
      order: acme.Order,
      mayFinalize: boolean
    ): Effect.Effect<OrderState, CertificateIssuerError> => {
      switch (order.status) {
        case "pending":
          return Effect.succeed({ _tag: "Pending" })
        case "ready":
          return mayFinalize ? finalize(order) : Effect.succeed({ _tag: "Ready" })
        case "processing":
          return Effect.as(keyOf(order), { _tag: "Processing" as const })
        case "valid":
          return download(order)
        case "invalid":
          privateKeys.remove(order.url)
          return settle(order).pipe(
            Effect.map((fromChallenges) => ({
              _tag: "Invalid" as const,
              reason: problemDetail(order.error) ?? fromChallenges ?? "the CA marked the order invalid"
            }))
          )
      }
    }

    const pollOrder = (ref: OrderRef): Effect.Effect<OrderState, CertificateIssuerError> =>
      Effect.gen(function* () {
        yield* ensureAccount
        const order = yield* call(`order lookup ${ref}`, () => client.getOrder(orderAt(ref)))
        return yield* describeOrder(order, true)
      })

    return CertificateIssuer.of({ startOrder, pollOrder })
  })

/** The domain port on an ACME CA, publishing its challenges in the domain's Http01ChallengeStore. */
export const layer = (
  options: Options
): Layer.Layer<CertificateIssuer, CertificateIssuerError, Http01ChallengeStore> =>
  Layer.effect(CertificateIssuer, make(options))
