/**
 * The behaviour every Http01ChallengeStore must have, as a test suite run against each adapter.
 * Tokens and key authorizations are shaped as ACME's (base64url token, `<token>.<thumbprint>`), and
 * fresh per test, so suites tolerate each other's rows.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { Http01ChallengeStore } from "@petstore/certificates"
import { Effect, type Layer, Option } from "effect"
import { Base64Url } from "effect/encoding"
import { randomToken } from "./ContractFixtures.js"

/** A fresh base64url token, as a CA hands out. */
const freshToken = Effect.map(randomToken, (token) => Base64Url.encode(`challenge-${token}`))

const keyAuthorization = (token: string, thumbprint: string) => `${token}.${thumbprint}`

export const http01ChallengeStoreTests = (it: Vitest.MethodsNonLive<Http01ChallengeStore>): void => {
  it.effect("put, then find returns the key authorization; an unknown token has none", () =>
    Effect.gen(function* () {
      const store = yield* Http01ChallengeStore
      const token = yield* freshToken
      expect(yield* store.find(token)).toEqual(Option.none())
      yield* store.put(token, keyAuthorization(token, "thumbprint-1_x-Y"))
      expect(yield* store.find(token)).toEqual(Option.some(keyAuthorization(token, "thumbprint-1_x-Y")))
      expect(yield* store.find(yield* freshToken)).toEqual(Option.none())
    })
  )

  it.effect("putting a token again replaces its key authorization", () =>
    Effect.gen(function* () {
      const store = yield* Http01ChallengeStore
      const token = yield* freshToken
      yield* store.put(token, keyAuthorization(token, "first"))
      yield* store.put(token, keyAuthorization(token, "second"))
      expect(yield* store.find(token)).toEqual(Option.some(keyAuthorization(token, "second")))
    })
  )

  it.effect("remove withdraws one token only; removing an unknown token is harmless", () =>
    Effect.gen(function* () {
      const store = yield* Http01ChallengeStore
      const [a, b] = [yield* freshToken, yield* freshToken]
      yield* store.put(a, keyAuthorization(a, "a"))
      yield* store.put(b, keyAuthorization(b, "b"))
      yield* store.remove(a)
      expect(yield* store.find(a)).toEqual(Option.none())
      expect(yield* store.find(b)).toEqual(Option.some(keyAuthorization(b, "b")))
      yield* store.remove(a)
      yield* store.remove(yield* freshToken)
      expect(yield* store.find(b)).toEqual(Option.some(keyAuthorization(b, "b")))
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const http01ChallengeStoreContract = <E>(
  name: string,
  store: Layer.Layer<Http01ChallengeStore, E>
): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("Http01ChallengeStore", () => http01ChallengeStoreTests(it))
  )
