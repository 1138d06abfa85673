/**
 * From a request and the domain's decision to the answer the edge gives. Kept apart from the
 * listeners so that each rule (where a redirect points, when plain HTTP moves to HTTPS, what an
 * error says) is written once and reads as a table. Answers carry no internal detail: errors are
 * a status and a fixed sentence.
 */
import type { EdgeDecision } from "@petstore/serving"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { placeholderPage } from "./PlaceholderPage.js"

/** The methods the edge answers; anything else is 405. */
export const allowedMethods = ["GET", "HEAD"] as const

export const isAllowedMethod = (method: string): boolean =>
  allowedMethods.some((allowed) => allowed === method)

/**
 * The path and query of the request target, safe to append to `https://<host>`: always starting with
 * `/` (an absolute-form target keeps only its path and query), and with every byte outside visible
 * ASCII percent-encoded so a Location header can never be split or rejected.
 */
export const requestTarget = (url: string): string => {
  let target = url
  if (!target.startsWith("/")) {
    try {
      const parsed = new URL(target)
      target = `${parsed.pathname}${parsed.search}`
    } catch {
      target = "/"
    }
  }
  return target.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run))
}

const plainText = (status: number, text: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(`${text}\n`, { status, contentType: "text/plain; charset=utf-8", headers })

/** Errors are not cached: a hostname that is not served now may be served in a minute. */
const plainError = (status: number, text: string, headers: Record<string, string> = {}) =>
  plainText(status, text, { "cache-control": "no-store", ...headers })

export const notFound = plainError(404, "Not found")

export const methodNotAllowed = plainError(405, "Method not allowed", { allow: allowedMethods.join(", ") })

/** A request on a TLS connection for a name other than the one the connection was opened for. */
export const misdirected = plainError(421, "Misdirected request")

/** A client that made storage look up too many unknown names: it may ask again after `retryAfterSeconds`. */
export const tooManyRequests = (retryAfterSeconds: number) =>
  plainError(429, "Too many requests, try again later", { "retry-after": String(retryAfterSeconds) })

export const internalError = plainError(500, "Internal server error")

export const unavailable = plainError(503, "Service unavailable, try again later", { "retry-after": "5" })

export const movedTo = (location: string) => plainText(301, `Moved permanently to ${location}`, { location })

/** The HTTP-01 answer: the key authorization, exactly (RFC 8555 section 8.3). */
export const keyAuthorization = (text: string) => HttpServerResponse.text(text, { contentType: "text/plain" })

export const page = (projectId: string) =>
  HttpServerResponse.text(placeholderPage(projectId), {
    contentType: "text/html; charset=utf-8",
    headers: { "cache-control": "no-store" }
  })

/** `https://<primary>/` from the domain, with the request's own path and query in place of `/`. */
const redirectLocation = (location: string, target: string): string =>
  `${location.replace(/\/$/, "")}${target}`

/**
 * On the HTTP listener: a served host with a certificate moves to HTTPS; one without (the platform's
 * default hostnames) is served over HTTP.
 */
export const answerOverHttp = (
  decision: EdgeDecision,
  request: { readonly host: string; readonly target: string; readonly hasCertificate: boolean }
): HttpServerResponse.HttpServerResponse => {
  switch (decision.action) {
    case "none":
      return notFound
    case "redirect":
      return movedTo(redirectLocation(decision.location, request.target))
    case "serve":
      return request.hasCertificate
        ? movedTo(`https://${request.host}${request.target}`)
        : page(decision.projectId)
  }
}

/** On the HTTPS listener. */
export const answerOverHttps = (
  decision: EdgeDecision,
  target: string
): HttpServerResponse.HttpServerResponse => {
  switch (decision.action) {
    case "none":
      return notFound
    case "redirect":
      return movedTo(redirectLocation(decision.location, target))
    case "serve":
      return page(decision.projectId)
  }
}
