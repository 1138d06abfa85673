/**
 * Http01ChallengeStore in memory: key authorizations by token, for a single process (the issuer and
 * the edge in one server) and the tests.
 */
import { Http01ChallengeStore } from "@petstore/certificates"
import { Effect, Layer, Option, Ref } from "effect"

export const make: Effect.Effect<Http01ChallengeStore["Service"]> = Effect.map(
  Ref.make(new Map<string, string>()),
  (tokens) =>
    Http01ChallengeStore.of({
      put: (token, keyAuthorization) =>
        Ref.update(tokens, (current) => new Map(current).set(token, keyAuthorization)),
      remove: (token) =>
        Ref.update(tokens, (current) => {
          const next = new Map(current)
          next.delete(token)
          return next
        }),
      find: (token) => Effect.map(Ref.get(tokens), (current) => Option.fromNullishOr(current.get(token)))
    })
)

export const layer: Layer.Layer<Http01ChallengeStore> = Layer.effect(Http01ChallengeStore, make)
