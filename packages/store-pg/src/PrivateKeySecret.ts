/**
 * Where the secret that encrypts private keys at rest comes from: the one the options give, or, none
 * given, a random secret generated once into a file of the data directory (mode 0600, in the directory
 * made private by `PrivateDirectory.ensure`). The file suits one machine (the API and the worker
 * sharing it); replicas on several machines must be given the same secret, or each would fail to read
 * the others' keys.
 */
import { randomBytes } from "node:crypto"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Thrown } from "@petstore/thrown"
import { Effect, Layer, Redacted } from "effect"
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

export interface Options {
  /** Where a generated secret is kept when none is given. */
  readonly directory: string
  /** The secret; omitted: the one kept in `directory`, generated there first if missing. */
  readonly secret?: Redacted.Redacted<string> | undefined
}

/** The cipher keyed by the given secret, else by the secret kept in the directory. */
export const cipherLayer = ({
  directory,
  secret
}: Options): Layer.Layer<PrivateKeyCipher.PrivateKeyCipher, PrivateKeyCipher.PrivateKeyCipherError> =>
  secret === undefined
    ? Layer.unwrap(
        fromDirectory(directory).pipe(
          Effect.tap(() =>
            Effect.logInfo(
              `no secret for private keys was given: they are encrypted with the secret kept in ${directory}`
            )
          ),
          Effect.map(PrivateKeyCipher.layer)
        )
      )
    : PrivateKeyCipher.layer(secret)
