/**
 * What each listener answers. Every request is decided again from current state (`EdgeDecisions`,
 * kept in memory until a change concerns it), so a removed hostname or a project fallen to the free
 * plan stops being served at once, even on a connection kept alive since before. Storage that fails
 * or does not answer in time gives 503, a client that made storage look up too many unknown names
 * 429, and nothing internal ever reaches a client.
 */
import { TLSSocket } from "node:tls"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type { CertificateStore, Http01ChallengeStore } from "@petstore/certificates"
import { DnsName } from "@petstore/domains"
import { pathOf } from "@petstore/node-listener"
import type { EdgeLookups, ServingChanges } from "@petstore/serving"
import { Effect, Option } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { answerChallenge, isChallengePath } from "./AcmeChallenge.js"
import { EdgeDecisions } from "./EdgeDecisions.js"
import {
  answerOverHttp,
  answerOverHttps,
  internalError,
  isAllowedMethod,
  methodNotAllowed,
  misdirected,
  requestTarget,
  tooManyRequests,
  unavailable
} from "./EdgeRequest.js"

/** What the edge reads to answer, and hears changes from. */
export type EdgeServices = EdgeLookups | CertificateStore | Http01ChallengeStore | ServingChanges

/** A request waits at most this long for storage before it is answered 503. */
const storageDeadline = "10 seconds"

const guarded = <E, R>(answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  answer.pipe(
    Effect.timeout(storageDeadline),
    Effect.catch((error) =>
      Effect.as(Effect.logWarning("edge: storage failed, answered 503", error), unavailable)
    ),
    Effect.catchDefect((defect) =>
      Effect.as(Effect.logError("edge: request failed, answered 500", defect), internalError)
    )
  )

/**
 * Plain HTTP: ACME challenges for any Host; a served host with a certificate moves to HTTPS, one
 * without is served here; redirects go straight to `https://<primary>`.
 */
export const httpApp = guarded(
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!isAllowedMethod(request.method)) return methodNotAllowed
    const target = requestTarget(request.url)
    const path = pathOf(target)
    const client = clientOf(request)
    if (isChallengePath(path)) return yield* answerChallenge(path, client)
    const host = DnsName.fromHost(request.headers.host ?? "")
    const resolution = yield* Effect.flatMap(EdgeDecisions, (decisions) => decisions.resolve(host, client))
    if (resolution._tag === "Limited") return tooManyRequests(resolution.retryAfterSeconds)
    const { decision, certificate } = resolution
    const hasCertificate = decision.action === "serve" && Option.isSome(certificate)
    return answerOverHttp(decision, { host, target, hasCertificate })
  })
)

/** The client's address: the socket's peer (no proxy header is trusted). */
const clientOf = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  NodeHttpServerRequest.toIncomingMessage(request).socket.remoteAddress

/** The name the TLS connection was opened for (its certificate's name). */
const serverNameOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const socket = NodeHttpServerRequest.toIncomingMessage(request).socket
  return socket instanceof TLSSocket && typeof socket.servername === "string" ? socket.servername : undefined
}

/**
 * HTTPS: only for the name the connection was opened for (another Host is 421, the client should
 * open a connection for it), served or redirected as the domain decides now.
 */
export const httpsApp = guarded(
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const host = DnsName.fromHost(request.headers.host ?? "")
    const servername = serverNameOf(request)
    if (servername === undefined || DnsName.fromHost(servername) !== host) return misdirected
    if (!isAllowedMethod(request.method)) return methodNotAllowed
    const resolution = yield* Effect.flatMap(EdgeDecisions, (decisions) =>
      decisions.resolve(host, clientOf(request))
    )
    if (resolution._tag === "Limited") return tooManyRequests(resolution.retryAfterSeconds)
    return answerOverHttps(resolution.decision, requestTarget(request.url))
  })
)
