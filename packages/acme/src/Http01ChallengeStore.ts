/**
 * Where HTTP-01 key authorizations are published while the CA validates them: the edge serves
 * `/.well-known/acme-challenge/<token>` from this store. The in-memory implementation suits a single
 * process (and the tests).
 */
import { Context, Effect, Layer, Option } from "effect"

export class Http01ChallengeStore extends Context.Tag("@petstore/acme/Http01ChallengeStore")<
  Http01ChallengeStore,
  {
    readonly put: (token: string, keyAuthorization: string) => Effect.Effect<void>
    readonly remove: (token: string) => Effect.Effect<void>
    /** The key authorization to answer for `token`, if one is published. */
    readonly get: (token: string) => Effect.Effect<Option.Option<string>>
  }
>() {}

/** A store in a `Map` (synchronous lookups are exposed for plain HTTP handlers). */
export const makeInMemory = (): Http01ChallengeStore["Type"] & {
  readonly getSync: (token: string) => string | undefined
} => {
  const tokens = new Map<string, string>()
  return {
    put: (token, keyAuthorization) =>
      Effect.sync(() => {
        tokens.set(token, keyAuthorization)
      }),
    remove: (token) =>
      Effect.sync(() => {
        tokens.delete(token)
      }),
    get: (token) => Effect.sync(() => Option.fromNullable(tokens.get(token))),
    getSync: (token) => tokens.get(token)
  }
}

export const layerInMemory: Layer.Layer<Http01ChallengeStore> = Layer.sync(Http01ChallengeStore, makeInMemory)
