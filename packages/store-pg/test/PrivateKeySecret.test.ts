/**
 * Where the secret for private keys comes from: the one given, or a file generated once in the
 * (private) data directory, readable by its owner only, which concurrent starts agree on.
 */
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { PrivateKeyCipher, PrivateKeySecret } from "../src/index.js"
import { temporaryDirectory } from "./temporaryDirectory.js"

const modeOf = (path: string) => Effect.promise(() => stat(path)).pipe(Effect.map((s) => s.mode & 0o777))

const pem = "-----BEGIN PRIVATE KEY-----\nsecret material\n-----END PRIVATE KEY-----\n"

/** Encrypts with one cipher layer and decrypts with another: true when they share the secret. */
const sameSecret = (
  a: Layer.Layer<PrivateKeyCipher.PrivateKeyCipher, unknown>,
  b: Layer.Layer<PrivateKeyCipher.PrivateKeyCipher, unknown>
) =>
  Effect.gen(function* () {
    const encrypted = yield* Effect.flatMap(PrivateKeyCipher.PrivateKeyCipher, (cipher) =>
      cipher.encrypt(Redacted.make(pem), "docs.example.com")
    ).pipe(Effect.provide(a, { local: true }))
    return yield* Effect.flatMap(PrivateKeyCipher.PrivateKeyCipher, (cipher) =>
      cipher.decrypt(encrypted, "docs.example.com")
    ).pipe(
      Effect.provide(b, { local: true }),
      Effect.match({ onFailure: () => false, onSuccess: (decrypted) => Redacted.value(decrypted) === pem })
    )
  })

describe("PrivateKeySecret", () => {
  it.live("generates the secret once into a file of the directory, mode 0600 in a 0700 directory", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const directory = join(yield* temporaryDirectory, "data")
        const first = yield* PrivateKeySecret.fromDirectory(directory)
        const file = join(directory, PrivateKeySecret.secretFile)
        expect(yield* modeOf(file)).toBe(0o600)
        expect(yield* modeOf(directory)).toBe(0o700)
        const text = yield* Effect.promise(() => readFile(file, "utf8"))
        expect(text).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
        expect(Redacted.value(first)).toBe(text.trim())
        expect(Redacted.value(yield* PrivateKeySecret.fromDirectory(directory))).toBe(text.trim())
      })
    )
  )

  it.live("concurrent starts agree on one secret", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const directory = join(yield* temporaryDirectory, "data")
        const secrets = yield* Effect.all(
          Array.from({ length: 8 }, () => PrivateKeySecret.fromDirectory(directory)),
          { concurrency: "unbounded" }
        )
        expect(new Set(secrets.map(Redacted.value)).size).toBe(1)
      })
    )
  )

  it.live("a data directory of ours that others may enter is made private", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const directory = join(yield* temporaryDirectory, "data")
        yield* Effect.promise(() => mkdir(directory, { mode: 0o755 }))
        yield* Effect.promise(() => chmod(directory, 0o755))
        yield* PrivateKeySecret.fromDirectory(directory)
        expect(yield* modeOf(directory)).toBe(0o700)
      })
    )
  )

  it.live("a directory that cannot be made private is refused, naming it", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const file = join(yield* temporaryDirectory, "not-a-directory")
        yield* Effect.promise(() => writeFile(file, ""))
        const error = yield* Effect.flip(PrivateKeySecret.fromDirectory(file))
        expect(error._tag).toBe("PrivateKeyCipherError")
        expect(error.message).toMatch(new RegExp(`^The secret for private keys cannot be kept in ${file}: `))
      })
    )
  )

  it.live("a given secret wins over the file, which is then not created", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const directory = join(yield* temporaryDirectory, "data")
        const configured = PrivateKeySecret.cipherLayer({
          directory,
          secret: Redacted.make("the configured secret")
        })
        expect(
          yield* sameSecret(configured, PrivateKeyCipher.layer(Redacted.make("the configured secret")))
        ).toBe(true)
        const created = yield* Effect.promise(() =>
          stat(directory).then(
            () => true,
            () => false
          )
        )
        expect(created).toBe(false)

        const generated = PrivateKeySecret.cipherLayer({ directory })
        const fromFile = Effect.map(PrivateKeySecret.fromDirectory(directory), PrivateKeyCipher.layer)
        expect(yield* sameSecret(generated, Layer.unwrap(fromFile))).toBe(true)
        expect(yield* sameSecret(generated, configured)).toBe(false)
      })
    )
  )
})
