/**
 * The encryption of private keys at rest: it round-trips, never repeats a ciphertext, and refuses
 * (with a message that gives nothing away) another secret, another hostname, a tampered or an
 * unknown value.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { PrivateKeyCipher } from "../src/index.js"

const pem =
  "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg✓\n-----END PRIVATE KEY-----\n"
const secret = "the secret of this test, long enough"
const hostname = "docs.example.com"

const cipherWith = (value: string) => Effect.orDie(PrivateKeyCipher.make(Redacted.make(value)))

/** Fails the test unless decrypting `encrypted` fails, and yields the failure's message. */
const refusal = (
  cipher: PrivateKeyCipher.PrivateKeyCipher["Service"],
  encrypted: string,
  boundTo = hostname
) =>
  Effect.map(Effect.flip(cipher.decrypt(encrypted, boundTo)), (error) => {
    expect(error._tag).toBe("PrivateKeyCipherError")
    expect(error.message).toMatch(/^The stored private key cannot be decrypted: /)
    for (const leaked of [pem, "PRIVATE KEY", secret, "MIGHAgEA"]) expect(error.message).not.toContain(leaked)
    return error.message
  })

describe("PrivateKeyCipher", () => {
  it.effect("round-trips a key as v1.<iv>.<tag>.<ciphertext>, base64url, never twice the same", () =>
    Effect.gen(function* () {
      const cipher = yield* cipherWith(secret)
      const first = yield* cipher.encrypt(Redacted.make(pem), hostname)
      const second = yield* cipher.encrypt(Redacted.make(pem), hostname)
      expect(first).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/)
      expect(first).not.toBe(second)
      expect(first.split(".")[1]).not.toBe(second.split(".")[1])
      expect(first).not.toContain("PRIVATE")
      expect(Redacted.value(yield* cipher.decrypt(first, hostname))).toBe(pem)
      expect(Redacted.value(yield* cipher.decrypt(second, hostname))).toBe(pem)
      // Another cipher from the same secret (another process, after a restart) reads it too.
      const again = yield* cipherWith(secret)
      expect(Redacted.value(yield* again.decrypt(first, hostname))).toBe(pem)
      expect(
        Redacted.value(yield* again.decrypt(yield* again.encrypt(Redacted.make(""), hostname), hostname))
      ).toBe("")
    })
  )

  it.effect("another secret, another hostname or a tampered value does not decrypt", () =>
    Effect.gen(function* () {
      const cipher = yield* cipherWith(secret)
      const encrypted = yield* cipher.encrypt(Redacted.make(pem), hostname)
      const other = yield* cipherWith(`${secret}!`)
      expect(yield* refusal(other, encrypted)).toContain("another secret")
      yield* refusal(cipher, encrypted, "www.example.com")
      const [version, iv, tag, data] = encrypted.split(".")
      const flip = (part: string | undefined) =>
        part === undefined ? "" : `${part.startsWith("A") ? "B" : "A"}${part.slice(1)}`
      yield* refusal(cipher, [version, flip(iv), tag, data].join("."))
      yield* refusal(cipher, [version, iv, flip(tag), data].join("."))
      yield* refusal(cipher, [version, iv, tag, flip(data)].join("."))
    })
  )

  it.effect("a malformed or unknown value is refused, not a crash", () =>
    Effect.gen(function* () {
      const cipher = yield* cipherWith(secret)
      const encrypted = yield* cipher.encrypt(Redacted.make(pem), hostname)
      const [, iv, tag, data] = encrypted.split(".")
      expect(yield* refusal(cipher, pem)).toContain("unknown format")
      expect(yield* refusal(cipher, `v2.${iv}.${tag}.${data}`)).toContain("unknown format")
      for (const malformed of [
        "v1",
        "v1...",
        `v1.${iv}.${tag}`,
        `v1.${iv}.${tag}.${data}.x`,
        `v1.${tag}.${iv}.${data}`,
        `v1.${iv}.${tag}.${data}+/`
      ]) {
        expect(yield* refusal(cipher, malformed)).toContain("malformed")
      }
    })
  )

  it.effect("an empty secret is refused", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(PrivateKeyCipher.make(Redacted.make("")))
      expect(error.message).toBe("The secret for private keys at rest is empty")
    })
  )

  it.effect("the layer provides the cipher", () =>
    Effect.gen(function* () {
      const cipher = yield* PrivateKeyCipher.PrivateKeyCipher
      const encrypted = yield* cipher.encrypt(Redacted.make(pem), hostname)
      expect(Redacted.value(yield* cipher.decrypt(encrypted, hostname))).toBe(pem)
    }).pipe(Effect.provide(PrivateKeyCipher.layer(Redacted.make(secret))))
  )
})
