/**
 * Encryption at rest of certificates' private keys, so that a copy of the database (a backup, a
 * replica, a leaked dump) does not give away the keys of the sites it serves.
 *
 * AES-256-GCM (node:crypto) with a key derived from the configured secret by HKDF-SHA256 (fixed salt
 * and info naming petstore), a random 12-byte IV per value, and the value bound to what it belongs
 * to (the hostname, as additional authenticated data) so a key copied into another row does not
 * decrypt there. Stored as `v1.<iv>.<tag>.<ciphertext>`, each part base64url: the version leaves
 * room for another scheme or key later. A value that does not decrypt (another secret, another
 * hostname, tampered with) fails with `PrivateKeyCipherError`, whose message never holds the key,
 * the secret or the plaintext.
 */
import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes
} from "node:crypto"
import { Context, Data, Effect, Layer, Redacted } from "effect"

export class PrivateKeyCipherError extends Data.TaggedError("PrivateKeyCipherError")<{
  readonly message: string
}> {}

export class PrivateKeyCipher extends Context.Service<
  PrivateKeyCipher,
  {
    /** The versioned, encrypted text of `privateKeyPem`, bound to `boundTo`. */
    readonly encrypt: (
      privateKeyPem: Redacted.Redacted<string>,
      boundTo: string
    ) => Effect.Effect<string, PrivateKeyCipherError>
    /** The private key again; fails unless the same secret encrypted it for the same `boundTo`. */
    readonly decrypt: (
      encrypted: string,
      boundTo: string
    ) => Effect.Effect<Redacted.Redacted<string>, PrivateKeyCipherError>
  }
>()("@petstore/store-pg/PrivateKeyCipher") {}

const version = "v1"
const algorithm = "aes-256-gcm"
const keyLength = 32
const ivLength = 12
const tagLength = 16
const salt = "petstore/store-pg/PrivateKeyCipher/salt/v1"
const info = "petstore certificate private keys at rest, v1"
const base64url = /^[A-Za-z0-9_-]*$/

const derive = (secret: Redacted.Redacted<string>): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync("sha256", Redacted.value(secret), salt, info, keyLength)))

const undecryptable = (reason: string) =>
  new PrivateKeyCipherError({ message: `The stored private key cannot be decrypted: ${reason}` })

const decodePart = (part: string | undefined, length?: number): Buffer | undefined => {
  if (part === undefined || !base64url.test(part)) return undefined
  const bytes = Buffer.from(part, "base64url")
  return length === undefined || bytes.length === length ? bytes : undefined
}

const cipherWithKey = (key: KeyObject): PrivateKeyCipher["Service"] =>
  PrivateKeyCipher.of({
    encrypt: (privateKeyPem, boundTo) =>
      Effect.try({
        try: () => {
          const iv = randomBytes(ivLength)
          const cipher = createCipheriv(algorithm, key, iv, { authTagLength: tagLength })
          cipher.setAAD(Buffer.from(boundTo, "utf8"))
          const ciphertext = Buffer.concat([
            cipher.update(Redacted.value(privateKeyPem), "utf8"),
            cipher.final()
          ])
          const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"))
          return [version, ...parts].join(".")
        },
        catch: () => new PrivateKeyCipherError({ message: "The private key could not be encrypted" })
      }),
    decrypt: (encrypted, boundTo) => {
      const [given, ...rest] = encrypted.split(".")
      if (given !== version) {
        return Effect.fail(undecryptable(`unknown format (expected ${version})`))
      }
      const [iv, tag, ciphertext] = [
        decodePart(rest[0], ivLength),
        decodePart(rest[1], tagLength),
        decodePart(rest[2])
      ]
      if (rest.length !== 3 || iv === undefined || tag === undefined || ciphertext === undefined) {
        return Effect.fail(undecryptable(`malformed ${version} value`))
      }
      return Effect.try({
        try: () => {
          const decipher = createDecipheriv(algorithm, key, iv, { authTagLength: tagLength })
          decipher.setAAD(Buffer.from(boundTo, "utf8"))
          decipher.setAuthTag(tag)
          return Redacted.make(
            Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8")
          )
        },
        catch: () =>
          undecryptable(
            "it was encrypted with another secret, for another hostname, or altered (check the configured secret)"
          )
      })
    }
  })

/** The cipher keyed by `secret`; an empty secret is refused (it would protect nothing). */
export const make = (
  secret: Redacted.Redacted<string>
): Effect.Effect<PrivateKeyCipher["Service"], PrivateKeyCipherError> =>
  Redacted.value(secret).length === 0
    ? Effect.fail(new PrivateKeyCipherError({ message: "The secret for private keys at rest is empty" }))
    : Effect.sync(() => cipherWithKey(derive(secret)))

/** The cipher keyed by `secret` (a long random value from configuration; changing it makes stored keys unreadable). */
export const layer = (
  secret: Redacted.Redacted<string>
): Layer.Layer<PrivateKeyCipher, PrivateKeyCipherError> => Layer.effect(PrivateKeyCipher, make(secret))
