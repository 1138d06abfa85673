import { describe, expect, it } from "@effect/vitest"
import { webCryptoSha256 } from "@petstore/kernel"
import { Effect } from "effect"
import fc from "fast-check"
import { nodeSha256 } from "../src/NodeSha256.js"

describe("NodeSha256", () => {
  it.effect("gives the FIPS 180-2 test vector", () =>
    Effect.gen(function* () {
      expect(yield* nodeSha256("abc")).toBe(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
      )
    })
  )

  it.effect("agrees with the Web Crypto default on any text, unicode included", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.fullUnicodeString({ maxLength: 600 }), async (text) => {
          const [node, web] = await Promise.all([
            Effect.runPromise(nodeSha256(text)),
            Effect.runPromise(webCryptoSha256(text))
          ])
          expect(node).toBe(web)
        }),
        { numRuns: 200 }
      )
    )
  )
})
