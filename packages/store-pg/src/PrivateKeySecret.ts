/**
 * Where the secret that encrypts private keys at rest comes from: `PETSTORE_SECRET_KEY`, or, unset, a
 * random secret generated once into a file of the data directory (mode 0600, in the directory made
 * private by `PrivateDirectory.ensure`). The file suits one machine (the API and the worker sharing
 * it); replicas on several machines must share the variable, or each would fail to read the others'
 * keys.
 */
import { randomBytes } from "node:crypto"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Thrown } from "@petstore/thrown"
import { Config, Effect, Layer, Option, Redacted } from "effect"
import * as PrivateDirectory from "./PrivateDirectory.js"
import * as PrivateKeyCipher from "./PrivateKeyCipher.js"

/** The file in the data directory that holds a generated secret. */
export const secretFile = "secret-key"

const isAlreadyThere = (cause: unknown) =>
  typeof cause === "object" && cause !== null && "code" in cause && cause.code === "EEXIST"

/** The secret in `directory`, generated there first if missing (exclusive create: concurrent starts agree). */
export const fromDirectory = (
  directory: string
): Effect.Effect<Redacted.Redacted<string>, PrivateKeyCipher.PrivateKeyCipherError> => {
  const cannotKeep = (cause: unknown) =>
    new PrivateKeyCipher.PrivateKeyCipherError({
      message: `The secret for private keys cannot be kept in ${directory}: ${Thrown.messageOf(cause)}`
    })
  return PrivateDirectory.ensure(directory).pipe(
    Effect.mapError((error) => cannotKeep(error.cause ?? error.message)),
    Effect.flatMap((privateDirectory) =>
      Effect.tryPromise({
        try: async () => {
          const path = join(privateDirectory, secretFile)
          try {
            await writeFile(path, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" })
          } catch (cause) {
            if (!isAlreadyThere(cause)) throw cause
          }
          return Redacted.make((await readFile(path, "utf8")).trim())
        },
        catch: cannotKeep
      })
    )
  )
}

/** The cipher keyed by `PETSTORE_SECRET_KEY`, else by the secret kept in `directory`. */
export const cipherLayer = (
  directory: string
): Layer.Layer<
  PrivateKeyCipher.PrivateKeyCipher,
  PrivateKeyCipher.PrivateKeyCipherError | Config.ConfigError
> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const configured = yield* Config.Redacted("PETSTORE_SECRET_KEY").pipe(Config.option)
      const secret = Option.isSome(configured)
        ? configured.value
        : yield* Effect.tap(fromDirectory(directory), () =>
            Effect.logInfo(
              `PETSTORE_SECRET_KEY is unset: private keys are encrypted with the secret in ${directory}`
            )
          )
      return PrivateKeyCipher.layer(secret)
    })
  )
