/**
 * SHA-256 as a service with a default: the Web Crypto API (every runtime has it, so the domain stays
 * pure). A runtime with a faster digest provides its own (Node's `createHash` is synchronous and
 * several times cheaper per call than `crypto.subtle`, which matters when every request hashes its key).
 */
import { Context, Effect } from "effect"
import { Hex } from "effect/encoding"

/** Lower-case hex SHA-256 of the UTF-8 bytes of a text. */
export type Sha256Hex = (text: string) => Effect.Effect<string>

export const webCryptoSha256: Sha256Hex = (text) =>
  Effect.map(
    Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
    (digest) => Hex.encode(new Uint8Array(digest))
  )

/** Provide another digest with `Layer.succeed(Sha256, digest)` or `Sha256.context(digest)`. */
export const Sha256: Context.Reference<Sha256Hex> = Context.Reference<Sha256Hex>("@petstore/kernel/Sha256", {
  defaultValue: () => webCryptoSha256
})
