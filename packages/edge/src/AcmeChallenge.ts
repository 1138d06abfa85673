/**
 * HTTP-01 challenges (RFC 8555 section 8.3): the CA fetches
 * `http://<hostname>/.well-known/acme-challenge/<token>` before the hostname is served at all, so this
 * path is answered for any Host, from the key authorizations the certificate issuer published.
 */
import { Http01ChallengeStore } from "@petstore/domain"
import { Effect, Option } from "effect"
import { keyAuthorization, notFound } from "./EdgeRequest.js"

const challengePrefix = "/.well-known/acme-challenge/"

/** ACME tokens are base64url; anything else names no challenge (and is not looked up). */
const tokenPattern = /^[A-Za-z0-9_-]{1,256}$/

export const isChallengePath = (path: string): boolean => path.startsWith(challengePrefix)

/** The answer for a challenge path: the key authorization of its token, or 404. */
export const answerChallenge = (path: string) =>
  Effect.gen(function* () {
    const token = path.slice(challengePrefix.length)
    if (!tokenPattern.test(token)) return notFound
    const found = yield* Effect.flatMap(Http01ChallengeStore, (store) => store.find(token))
    return Option.match(found, { onNone: () => notFound, onSome: keyAuthorization })
  })
