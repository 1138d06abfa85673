/**
 * Which certificate authority issues the custom domains' certificates, from configuration:
 * `PETSTORE_ACME_DIRECTORY_URL` set, an ACME CA (with `PETSTORE_ACME_EMAIL` as the account's contact
 * and its account key kept once in the data directory); unset, the local CA kept in the data directory
 * (in memory when there is none), so a server started with no configuration shows the whole lifecycle
 * with no network. The ACME CA's HTTPS endpoint is trusted through the standard NODE_EXTRA_CA_CERTS.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { type CertificateIssuer, CertificateIssuerError, type Http01ChallengeStore } from "@petstore/domain"
import * as acme from "acme-client"
import { Config, type ConfigError, Effect, Layer, Option, Redacted } from "effect"
import * as AcmeCertificateIssuer from "./AcmeCertificateIssuer.js"
import * as LocalCertificateAuthority from "./LocalCertificateAuthority.js"

/** The ACME account key's file in the data directory. */
export const accountKeyFile = "acme-account.pem"
/** The local CA's directory in the data directory (its `root.crt` is what a browser must trust). */
export const internalCaDirectory = "internal-ca"

export const AcmeConfig = Config.all({
  directoryUrl: Config.url("PETSTORE_ACME_DIRECTORY_URL").pipe(Config.option),
  email: Config.string("PETSTORE_ACME_EMAIL").pipe(Config.option)
})

const isAlreadyThere = (cause: unknown) =>
  typeof cause === "object" && cause !== null && (cause as { code?: unknown }).code === "EEXIST"

/** The account key in `directory`, made there on first use (exclusive create: concurrent starts agree). */
const accountKeyIn = (directory: string) =>
  Effect.tryPromise({
    try: async () => {
      await mkdir(directory, { recursive: true, mode: 0o700 })
      const path = join(directory, accountKeyFile)
      try {
        await writeFile(path, await acme.crypto.createPrivateKey(), { mode: 0o600, flag: "wx" })
      } catch (cause) {
        if (!isAlreadyThere(cause)) throw cause
      }
      return Redacted.make(await readFile(path, "utf8"))
    },
    catch: (cause) =>
      new CertificateIssuerError({
        message: `The ACME account key cannot be kept in ${directory}: ${cause instanceof Error ? cause.message : String(cause)}`
      })
  })

/** The configured issuer; `dataDirectory` none: nothing is kept (memory storage). */
export const issuerLayer = (
  dataDirectory: Option.Option<string>
): Layer.Layer<CertificateIssuer, CertificateIssuerError | ConfigError.ConfigError, Http01ChallengeStore> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const { directoryUrl, email } = yield* AcmeConfig
      if (Option.isNone(directoryUrl)) {
        const directory = Option.map(dataDirectory, (root) => join(root, internalCaDirectory))
        yield* Effect.logInfo(
          Option.match(directory, {
            onNone: () =>
              "certificates come from a local CA kept in memory (PETSTORE_ACME_DIRECTORY_URL is unset)",
            onSome: (path) =>
              `certificates come from the local CA in ${path} (PETSTORE_ACME_DIRECTORY_URL is unset); trust ${join(path, LocalCertificateAuthority.rootCertificateFile)} to browse the edge`
          })
        )
        return LocalCertificateAuthority.issuerLayer(
          Option.isSome(directory) ? { directory: directory.value } : {}
        )
      }
      const accountKeyPem = Option.isSome(dataDirectory)
        ? yield* accountKeyIn(dataDirectory.value)
        : undefined
      yield* Effect.logInfo(`certificates come from the ACME CA at ${directoryUrl.value.href}`)
      return AcmeCertificateIssuer.layer({
        directoryUrl: directoryUrl.value.href,
        ...(Option.isSome(email) ? { email: email.value } : {}),
        ...(accountKeyPem === undefined ? {} : { accountKeyPem })
      })
    })
  )
