/**
 * A certificate authority inside the process, for the embedded default (a dev server's `tls internal`):
 * no CA to reach and no challenge to serve, so HTTPS works on names no public CA would validate. Its
 * root (ECDSA P-256, ten years) is made on first use and kept in the caller's directory (`root.crt`,
 * `root.key` with mode 0600), so a client told to trust it keeps trusting it across restarts; without
 * a directory it lives in memory only. Leaves (ECDSA P-256, the hostname as their one name, serverAuth,
 * 90 days by default) are signed by the root on demand.
 *
 * `issuerLayer` puts it behind the domain's CertificateIssuer: an order is Valid as soon as it is polled.
 * The ref names the hostname, so an order survives a restart (a new key is made at each poll).
 *
 * `@peculiar/x509` builds the certificates on node's WebCrypto; it needs a Reflect metadata polyfill
 * loaded before it (its dependency injection container checks for one on import).
 */
import "reflect-metadata"
import { createPrivateKey, type webcrypto, X509Certificate } from "node:crypto"
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import * as x509 from "@peculiar/x509"
import { CertificateIssuer, CertificateIssuerError } from "@petstore/certificates"
import { DnsName, type Hostname, OrderRef } from "@petstore/domains"
import { Thrown } from "@petstore/thrown"
import { Context, Duration, Effect, Layer, Option, Redacted, Schedule, Schema } from "effect"
import { Hex } from "effect/encoding"
import { rootCertificateFile, rootKeyFile } from "./LocalCaFiles.js"

export interface Options {
  /** Where the root is kept (created if missing); in memory only when absent. */
  readonly directory?: string
  /** How long a leaf is valid; 90 days when absent (never past the root's end). */
  readonly validity?: Duration.Input
}

/** A leaf certificate for one hostname, with the root as its chain. */
export interface IssuedCertificate {
  readonly certificatePem: string
  /** The root's certificate (PEM): what a client must trust. */
  readonly chainPem: string
  /** The leaf's private key (PKCS#8 PEM). */
  readonly privateKeyPem: Redacted.Redacted<string>
  readonly notBefore: Date
  readonly notAfter: Date
}

export class LocalCertificateAuthority extends Context.Service<
  LocalCertificateAuthority,
  {
    /** The root's certificate (PEM), to give to the clients that should trust the leaves. */
    readonly rootCertificatePem: string
    /** A fresh key and a leaf for `hostname`, signed by the root. */
    readonly issue: (hostname: string) => Effect.Effect<IssuedCertificate, CertificateIssuerError>
  }
>()("@petstore/acme/LocalCertificateAuthority") {}

export { rootCertificateFile, rootKeyFile } from "./LocalCaFiles.js"

const defaultLeafValidity = Duration.days(90)
const rootValidity = Duration.days(3653)
/** Leaves start a minute back, for clocks slightly behind ours. */
const clockSkew = Duration.minutes(1)

const ecdsa = { name: "ECDSA", namedCurve: "P-256" } as const
const signingAlgorithm = { name: "ECDSA", hash: "SHA-256" } as const

/** A DNS name of letter-digit-hyphen labels (what a dNSName SAN may hold). */
const isDnsName = Schema.is(DnsName.DnsName)

/** The `code` of a file system error (`ENOENT`, `EEXIST`), if it has one. */
const errorCode = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "code" in error ? error.code : undefined

const failure = (message: string) => (cause: unknown) =>
  new CertificateIssuerError({ message: `${message}: ${Thrown.messageOf(cause)}` })

/** The WebCrypto `@peculiar/x509` signs with: node's, passed to each call (no global provider set). */
const webCrypto = globalThis.crypto

/** 16 random bytes, top bit clear: a positive serial number of 127 bits, in hex. */
const randomSerial = (): string => {
  const bytes = webCrypto.getRandomValues(new Uint8Array(16))
  bytes[0] = (bytes[0] ?? 0) & 0x7f
  return Hex.encode(bytes)
}

/** Now, to the second (X.509 times carry no milliseconds). */
const nowToTheSecond = (): Date => new Date(Math.floor(Date.now() / 1000) * 1000)

const generateKeyPair = Effect.tryPromise({
  try: () => webCrypto.subtle.generateKey(ecdsa, true, ["sign", "verify"]),
  catch: failure("cannot generate an ECDSA P-256 key")
})

const privateKeyPem = (key: webcrypto.CryptoKey): Effect.Effect<string, CertificateIssuerError> =>
  Effect.tryPromise({
    try: async () => x509.PemConverter.encode(await webCrypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY"),
    catch: failure("cannot export a private key")
  })

interface Root {
  readonly certificate: x509.X509Certificate
  readonly certificatePem: string
  readonly signingKey: webcrypto.CryptoKey
}

const makeRoot: Effect.Effect<Root & { readonly privateKeyPem: string }, CertificateIssuerError> = Effect.gen(
  function* () {
    const keys = yield* generateKeyPair
    const notBefore = new Date(nowToTheSecond().getTime() - Duration.toMillis(clockSkew))
    const certificate = yield* Effect.tryPromise({
      try: async () =>
        x509.X509CertificateGenerator.createSelfSigned(
          {
            serialNumber: randomSerial(),
            name: `CN=Petstore Local Authority - ${notBefore.getUTCFullYear()} ECC Root`,
            notBefore,
            notAfter: new Date(notBefore.getTime() + Duration.toMillis(rootValidity)),
            keys,
            signingAlgorithm,
            extensions: [
              new x509.BasicConstraintsExtension(true, 0, true),
              new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
              await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webCrypto)
            ]
          },
          webCrypto
        ),
      catch: failure("cannot make the local root certificate")
    })
    return {
      certificate,
      certificatePem: certificate.toString("pem"),
      signingKey: keys.privateKey,
      privateKeyPem: yield* privateKeyPem(keys.privateKey)
    }
  }
)

/** A root from its PEM files: a CA certificate, still valid, and the key that matches it. */
const readRoot = (
  certificatePem: string,
  keyPem: string,
  where: string
): Effect.Effect<Root, CertificateIssuerError> =>
  Effect.gen(function* () {
    const checked = yield* Effect.try({
      try: () => new X509Certificate(certificatePem),
      catch: failure(`the local root certificate in ${where} is unreadable`)
    })
    const key = yield* Effect.try({
      try: () => createPrivateKey(keyPem),
      catch: failure(`the local root key in ${where} is unreadable`)
    })
    if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
      return yield* new CertificateIssuerError({
        message: `the local root key in ${where} is not an ECDSA P-256 key`
      })
    }
    if (!checked.ca) {
      return yield* new CertificateIssuerError({
        message: `the local root in ${where} is not a CA certificate`
      })
    }
    if (!checked.checkPrivateKey(key)) {
      return yield* new CertificateIssuerError({
        message: `the local root key in ${where} does not match the root certificate`
      })
    }
    if (new Date(checked.validTo).getTime() <= Date.now()) {
      return yield* new CertificateIssuerError({
        message: `the local root in ${where} expired on ${new Date(checked.validTo).toISOString()}: remove ${rootCertificateFile} and ${rootKeyFile} to make a new one`
      })
    }
    const signingKey = yield* Effect.tryPromise({
      try: () =>
        webCrypto.subtle.importKey("pkcs8", key.export({ type: "pkcs8", format: "der" }), ecdsa, false, [
          "sign"
        ]),
      catch: failure(`the local root key in ${where} cannot be used`)
    })
    return { certificate: new x509.X509Certificate(checked.raw), certificatePem, signingKey }
  })

const readText = (path: string): Effect.Effect<Option.Option<string>, CertificateIssuerError> =>
  Effect.tryPromise({
    try: async () => {
      try {
        return Option.some(await readFile(path, "utf8"))
      } catch (error) {
        if (errorCode(error) === "ENOENT") return Option.none()
        throw error
      }
    },
    catch: failure(`cannot read ${path}`)
  })

/**
 * The root kept in `directory`, made there if it has none. Another process making it at the same
 * time is waited for: the key is created exclusively, and the certificate renamed into place after it.
 */
const rootIn = (directory: string): Effect.Effect<Root, CertificateIssuerError> => {
  const certificatePath = join(directory, rootCertificateFile)
  const keyPath = join(directory, rootKeyFile)

  const load = (certificatePem: string) =>
    Effect.flatMap(readText(keyPath), (key) =>
      Option.match(key, {
        onNone: () =>
          Effect.fail(
            new CertificateIssuerError({
              message: `${certificatePath} has no ${rootKeyFile} beside it: restore it, or remove both files to make a new root`
            })
          ),
        onSome: (keyPem) => readRoot(certificatePem, keyPem, directory)
      })
    )

  /** Waits (5 s at most) for the certificate of a key another process is writing. */
  const awaitCertificate = readText(certificatePath).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail({ _tag: "NotYet" as const }),
        onSome: Effect.succeed
      })
    ),
    Effect.retry({
      schedule: Schedule.spaced(Duration.millis(50)).pipe(Schedule.upTo({ duration: Duration.seconds(5) })),
      while: (error) => error._tag === "NotYet"
    }),
    Effect.catchIf(
      (error) => error._tag === "NotYet",
      () =>
        Effect.fail(
          new CertificateIssuerError({
            message: `${keyPath} has no ${rootCertificateFile} beside it (a root creation was interrupted?): remove it to make a new root`
          })
        )
    ),
    Effect.flatMap(load)
  )

  const create = Effect.gen(function* () {
    const root = yield* makeRoot
    const created = yield* Effect.tryPromise({
      try: async () => {
        try {
          await writeFile(keyPath, root.privateKeyPem, { flag: "wx", mode: 0o600 })
        } catch (error) {
          if (errorCode(error) === "EEXIST") return false
          throw error
        }
        const partial = `${certificatePath}.${randomSerial()}.tmp`
        try {
          await writeFile(partial, root.certificatePem, { flag: "wx", mode: 0o644 })
          await rename(partial, certificatePath)
        } catch (error) {
          await rm(partial, { force: true })
          await rm(keyPath, { force: true })
          throw error
        }
        return true
      },
      catch: failure(`cannot keep the local root in ${directory}`)
    })
    return created ? root : yield* awaitCertificate
  })

  return Effect.tryPromise({
    try: () => mkdir(directory, { recursive: true, mode: 0o700 }),
    catch: failure(`cannot create ${directory}`)
  }).pipe(
    Effect.andThen(readText(certificatePath)),
    Effect.flatMap(Option.match({ onNone: () => create, onSome: load }))
  )
}

/** The root's authority key identifier extension, the same in every leaf: computed once per root. */
const authorityKeyIdentifiers = new WeakMap<Root, Promise<x509.AuthorityKeyIdentifierExtension>>()
const authorityKeyIdentifier = (root: Root): Promise<x509.AuthorityKeyIdentifierExtension> => {
  const known = authorityKeyIdentifiers.get(root)
  if (known !== undefined) return known
  const made = x509.AuthorityKeyIdentifierExtension.create(root.certificate.publicKey, false, webCrypto)
  authorityKeyIdentifiers.set(root, made)
  made.catch(() => authorityKeyIdentifiers.delete(root))
  return made
}

const leaf = (
  root: Root,
  hostname: string,
  validity: Duration.Duration
): Effect.Effect<IssuedCertificate, CertificateIssuerError> =>
  Effect.gen(function* () {
    const name = hostname.toLowerCase()
    if (!isDnsName(name)) {
      return yield* new CertificateIssuerError({
        message: `the local CA issues for DNS names only, not ${JSON.stringify(hostname)}`
      })
    }
    const keys = yield* generateKeyPair
    const notBefore = new Date(nowToTheSecond().getTime() - Duration.toMillis(clockSkew))
    const notAfter = new Date(
      Math.min(notBefore.getTime() + Duration.toMillis(validity), root.certificate.notAfter.getTime())
    )
    const certificate = yield* Effect.tryPromise({
      try: async () =>
        x509.X509CertificateGenerator.create(
          {
            serialNumber: randomSerial(),
            subject: new x509.Name([{ CN: [name] }]),
            issuer: root.certificate.subjectName,
            notBefore,
            notAfter,
            publicKey: keys.publicKey,
            signingKey: root.signingKey,
            signingAlgorithm,
            extensions: [
              new x509.BasicConstraintsExtension(false, undefined, true),
              new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
              new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
              new x509.SubjectAlternativeNameExtension([{ type: "dns", value: name }]),
              await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webCrypto),
              await authorityKeyIdentifier(root)
            ]
          },
          webCrypto
        ),
      catch: failure(`cannot sign a local certificate for ${name}`)
    })
    return {
      certificatePem: certificate.toString("pem"),
      chainPem: root.certificatePem,
      privateKeyPem: Redacted.make(yield* privateKeyPem(keys.privateKey)),
      notBefore: certificate.notBefore,
      notAfter: certificate.notAfter
    }
  })

/** The authority: its root loaded from (or made in) `directory`, or made in memory. */
export const make = (
  options: Options = {}
): Effect.Effect<LocalCertificateAuthority["Service"], CertificateIssuerError> =>
  Effect.gen(function* () {
    const root = options.directory === undefined ? yield* makeRoot : yield* rootIn(options.directory)
    const validity = Duration.fromInputUnsafe(options.validity ?? defaultLeafValidity)
    return LocalCertificateAuthority.of({
      rootCertificatePem: root.certificatePem,
      issue: (hostname) => leaf(root, hostname, validity)
    })
  })

export const layer = (
  options: Options = {}
): Layer.Layer<LocalCertificateAuthority, CertificateIssuerError> =>
  Layer.effect(LocalCertificateAuthority, make(options))

const orderPrefix = "local:"
const orderPattern = /^local:([^:]+):[0-9a-f]+$/

/** The domain's CertificateIssuer on `authority`: `local:<hostname>:<random>` refs, Valid at once. */
export const asIssuer = (authority: LocalCertificateAuthority["Service"]): CertificateIssuer["Service"] =>
  CertificateIssuer.of({
    startOrder: (hostname: Hostname) =>
      Effect.sync(() => OrderRef.make(`${orderPrefix}${hostname}:${randomSerial()}`)),
    pollOrder: (order) => {
      const hostname = orderPattern.exec(order)?.[1]
      return hostname === undefined
        ? Effect.fail(
            new CertificateIssuerError({
              message: `${JSON.stringify(order)} is not an order of the local CA`
            })
          )
        : Effect.map(authority.issue(hostname), (issued) => ({ _tag: "Valid" as const, ...issued }))
    }
  })

/** The domain's CertificateIssuer on a local authority made from `options`. */
export const issuerLayer = (options: Options = {}): Layer.Layer<CertificateIssuer, CertificateIssuerError> =>
  Layer.effect(CertificateIssuer, Effect.map(make(options), asIssuer))
