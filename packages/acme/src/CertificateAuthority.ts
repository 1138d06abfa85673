/**
 * Which certificate authority issues the custom domains' certificates, as the options say: an ACME
 * CA when one is given (its account key kept once in the data directory), else the local CA kept in
 * the data directory (in memory when there is none), so a server started with no configuration shows
 * the whole lifecycle with no network. The ACME CA's HTTPS endpoint is trusted through the standard
 * NODE_EXTRA_CA_CERTS.
 *
 * The CA code (acme-client, X.509) is loaded on the first certificate to issue, not at start-up: it
 * costs most of a second, which a server that never issues (or not yet) should not pay to start.
 * Import this module by its own path (`@petstore/acme/CertificateAuthority`) to keep it so.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { CertificateIssuer, CertificateIssuerError, Http01ChallengeStore } from "@petstore/certificates"
import { Thrown } from "@petstore/thrown"
import { Duration, Effect, Exit, Layer, Redacted } from "effect"
import { rootCertificateFile } from "./LocalCaFiles.js"

/** The ACME account key's file in the data directory. */
export const accountKeyFile = "acme-account.pem"
/** The local CA's directory in the data directory (its `root.crt` is what a browser must trust). */
export const internalCaDirectory = "internal-ca"

/** An ACME CA to order from: its directory, and the account's contact. */
export interface AcmeAccount {
  readonly directoryUrl: URL
  readonly email?: string | undefined
}

export interface Options {
  /** Where the CA keeps its files (the local CA, the ACME account key); omitted: nothing is kept. */
  readonly dataDirectory?: string | undefined
  /** The ACME CA that issues; omitted: the local CA. */
  readonly acme?: AcmeAccount | undefined
}

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
        message: `The ACME account key cannot be kept in ${directory}: ${Thrown.messageOf(cause)}`
      })
  })

const loadFailed = (cause: unknown) =>
  new CertificateIssuerError({
    message: `The certificate authority's code cannot be loaded: ${Thrown.messageOf(cause)}`
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

/** The issuer the options choose (see the module's comment). */
export const issuerLayer = (options: Options): Layer.Layer<CertificateIssuer, never, Http01ChallengeStore> =>
  Layer.effect(
    CertificateIssuer,
    Effect.gen(function* () {
      const { dataDirectory, acme } = options
      if (acme === undefined) {
        const directory = dataDirectory === undefined ? undefined : join(dataDirectory, internalCaDirectory)
        yield* Effect.logInfo(
          directory === undefined
            ? "certificates come from a local CA kept in memory (no ACME CA is configured)"
            : `certificates come from the local CA in ${directory} (no ACME CA is configured); trust ${join(directory, rootCertificateFile)} to browse the edge`
        )
        return yield* onFirstUse(
          Effect.tryPromise({ try: () => import("./LocalCertificateAuthority.js"), catch: loadFailed }).pipe(
            Effect.flatMap((local) =>
              Effect.map(local.make(directory === undefined ? {} : { directory }), local.asIssuer)
            )
          )
        )
      }
      const challenges = yield* Http01ChallengeStore
      yield* Effect.logInfo(`certificates come from the ACME CA at ${acme.directoryUrl.href}`)
      return yield* onFirstUse(
        Effect.gen(function* () {
          const accountKeyPem = dataDirectory === undefined ? undefined : yield* accountKeyIn(dataDirectory)
          const issuer = yield* Effect.tryPromise({
            try: () => import("./AcmeCertificateIssuer.js"),
            catch: loadFailed
          })
          return yield* issuer
            .make({
              directoryUrl: acme.directoryUrl.href,
              ...(acme.email === undefined ? {} : { email: acme.email }),
              ...(accountKeyPem === undefined ? {} : { accountKeyPem })
            })
            .pipe(Effect.provideService(Http01ChallengeStore, challenges))
        })
      )
    })
  )
