/**
 * Which certificate authority issues the custom domains' certificates, from configuration:
 * `PETSTORE_ACME_DIRECTORY_URL` set, an ACME CA (with `PETSTORE_ACME_EMAIL` as the account's contact
 * and its account key kept once in the data directory); unset, the local CA kept in the data directory
 * (in memory when there is none), so a server started with no configuration shows the whole lifecycle
 * with no network. The ACME CA's HTTPS endpoint is trusted through the standard NODE_EXTRA_CA_CERTS.
 *
 * The CA code (acme-client, X.509) is loaded on the first certificate to issue, not at start-up: it
 * costs most of a second, which a server that never issues (or not yet) should not pay to start.
 * Import this module by its own path (`@petstore/acme/CertificateAuthorityConfig`) to keep it so.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { CertificateIssuer, CertificateIssuerError, Http01ChallengeStore } from "@petstore/custom-domains"
import { Config, Duration, Effect, Exit, Layer, Option, Redacted } from "effect"
import { rootCertificateFile } from "./LocalCaFiles.js"

/** The ACME account key's file in the data directory. */
export const accountKeyFile = "acme-account.pem"
/** The local CA's directory in the data directory (its `root.crt` is what a browser must trust). */
export const internalCaDirectory = "internal-ca"

export const AcmeConfig = Config.all({
  directoryUrl: Config.URL("PETSTORE_ACME_DIRECTORY_URL").pipe(Config.option),
  email: Config.String("PETSTORE_ACME_EMAIL").pipe(Config.option)
})

const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

const isAlreadyThere = (cause: unknown) =>
  typeof cause === "object" && cause !== null && "code" in cause && cause.code === "EEXIST"

/** The account key in `directory`, made there on first use (exclusive create: concurrent starts agree). */
const accountKeyIn = (directory: string) =>
  Effect.tryPromise({
    try: async () => {
      await mkdir(directory, { recursive: true, mode: 0o700 })
      const path = join(directory, accountKeyFile)
      try {
        const { createAccountKey } = await import("./AcmeCertificateIssuer.js")
        await writeFile(path, await createAccountKey(), { mode: 0o600, flag: "wx" })
      } catch (cause) {
        if (!isAlreadyThere(cause)) throw cause
      }
      return Redacted.make(await readFile(path, "utf8"))
    },
    catch: (cause) =>
      new CertificateIssuerError({
        message: `The ACME account key cannot be kept in ${directory}: ${describe(cause)}`
      })
  })

const loadFailed = (cause: unknown) =>
  new CertificateIssuerError({
    message: `The certificate authority's code cannot be loaded: ${describe(cause)}`
  })

/** An issuer built on its first use (once, whatever the concurrency); a failed build is tried again next time. */
const onFirstUse = (
  build: Effect.Effect<CertificateIssuer["Service"], CertificateIssuerError>
): Effect.Effect<CertificateIssuer["Service"]> =>
  Effect.map(
    Effect.cachedWithTTL(build, (exit) => (Exit.isSuccess(exit) ? Duration.infinity : Duration.zero)),
    (issuer) =>
      CertificateIssuer.of({
        startOrder: (hostname) => Effect.flatMap(issuer, (real) => real.startOrder(hostname)),
        pollOrder: (order) => Effect.flatMap(issuer, (real) => real.pollOrder(order))
      })
  )

/** The configured issuer; `dataDirectory` none: nothing is kept (memory storage). */
export const issuerLayer = (
  dataDirectory: Option.Option<string>
): Layer.Layer<CertificateIssuer, Config.ConfigError, Http01ChallengeStore> =>
  Layer.effect(
    CertificateIssuer,
    Effect.gen(function* () {
      const { directoryUrl, email } = yield* AcmeConfig
      if (Option.isNone(directoryUrl)) {
        const directory = Option.map(dataDirectory, (root) => join(root, internalCaDirectory))
        yield* Effect.logInfo(
          Option.match(directory, {
            onNone: () =>
              "certificates come from a local CA kept in memory (PETSTORE_ACME_DIRECTORY_URL is unset)",
            onSome: (path) =>
              `certificates come from the local CA in ${path} (PETSTORE_ACME_DIRECTORY_URL is unset); trust ${join(path, rootCertificateFile)} to browse the edge`
          })
        )
        return yield* onFirstUse(
          Effect.tryPromise({ try: () => import("./LocalCertificateAuthority.js"), catch: loadFailed }).pipe(
            Effect.flatMap((local) =>
              Effect.map(
                local.make(Option.isSome(directory) ? { directory: directory.value } : {}),
                local.asIssuer
              )
            )
          )
        )
      }
      const challenges = yield* Http01ChallengeStore
      yield* Effect.logInfo(`certificates come from the ACME CA at ${directoryUrl.value.href}`)
      return yield* onFirstUse(
        Effect.gen(function* () {
          const accountKeyPem = Option.isSome(dataDirectory)
            ? yield* accountKeyIn(dataDirectory.value)
            : undefined
          const acme = yield* Effect.tryPromise({
            try: () => import("./AcmeCertificateIssuer.js"),
            catch: loadFailed
          })
          return yield* acme
            .make({
              directoryUrl: directoryUrl.value.href,
              ...(Option.isSome(email) ? { email: email.value } : {}),
              ...(accountKeyPem === undefined ? {} : { accountKeyPem })
            })
            .pipe(Effect.provideService(Http01ChallengeStore, challenges))
        })
      )
    })
  )
