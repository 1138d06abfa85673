/**
 * HTTP-01 challenges (RFC 8555 section 8.3): the CA fetches
 * `http://<hostname>/.well-known/acme-challenge/<token>` before the hostname is served at all, so this
 * path is answered for any Host, from the key authorizations the certificate issuer published.
 * Tokens are looked up in storage, so a token not found costs the client as an unknown name does.
 */
import { Http01ChallengeStore } from "@petstore/certificates"
import { Effect, Option } from "effect"
import { EdgeDecisions } from "./EdgeDecisions.js"
import { keyAuthorization, notFound, tooManyRequests } from "./EdgeRequest.js"

const challengePrefix = "/.well-known/acme-challenge/"

/** ACME tokens are base64url; anything else names no challenge (and is not looked up). */
const tokenPattern = /^[A-Za-z0-9_-]{1,256}$/

export const isChallengePath = (path: string): boolean => path.startsWith(challengePrefix)

/** The answer for a challenge path asked by `client`: the key authorization of its token, or 404. */
export const answerChallenge = (path: string, client: string | undefined) =>
  Effect.gen(function* () {
    const token = path.slice(challengePrefix.length)
    if (!tokenPattern.test(token)) return notFound
    const store = yield* Http01ChallengeStore
    const decisions = yield* EdgeDecisions
    const found = yield* decisions.lookUpWithin(client, store.find(token), Option.isSome)
    if (found._tag === "Limited") return tooManyRequests(found.retryAfterSeconds)
    return Option.match(found.value, { onNone: () => notFound, onSome: keyAuthorization })
  })
