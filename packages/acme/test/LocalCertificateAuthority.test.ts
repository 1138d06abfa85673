/**
 * The local CA: its leaves verify against its root (checked by node's own X.509 code and by a real TLS
 * handshake), its root survives in a directory, a broken root directory is a typed error, and it
 * serves the domain's CertificateIssuer.
 */
import { createPrivateKey, X509Certificate } from "node:crypto"
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer, request } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { CertificateIssuer, type OrderState } from "@petstore/certificates"
import { Hostname, OrderRef } from "@petstore/domains"
import { Duration, Effect, Redacted } from "effect"
import { LocalCertificateAuthority } from "../src/index.js"

/** A fresh directory, removed when the scope closes. */
const scratchDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "local-ca-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

const keyMatches = (certificatePem: string, privateKeyPem: Redacted.Redacted<string>): boolean =>
  new X509Certificate(certificatePem).checkPrivateKey(createPrivateKey(Redacted.value(privateKeyPem)))

const days = (from: Date, to: Date): number => (to.getTime() - from.getTime()) / Duration.toMillis("1 day")

/** An HTTPS server on loopback answering "hello" with `certificate`, closed with the scope. */
const httpsServer = (certificate: LocalCertificateAuthority.IssuedCertificate) =>
  Effect.acquireRelease(
    Effect.callback<ReturnType<typeof createServer>>((resume) => {
      const server = createServer(
        { cert: certificate.certificatePem, key: Redacted.value(certificate.privateKeyPem) },
        (_request, response) => response.end("hello")
      )
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((server) => (server.address() as AddressInfo).port))

/** GET / over TLS as `servername`, trusting `ca` only: the body, or the client's error code. */
const fetchAs = (port: number, servername: string, ca: string) =>
  Effect.callback<{ readonly body: string } | { readonly error: string }>((resume) => {
    const client = request(
      { host: "127.0.0.1", port, servername, ca, agent: false, path: "/" },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => {
          body += chunk
        })
        response.on("end", () => resume(Effect.succeed({ body })))
      }
    )
    client.on("error", (error: NodeJS.ErrnoException) =>
      resume(Effect.succeed({ error: error.code ?? error.message }))
    )
    client.end()
  })

describe("LocalCertificateAuthority", () => {
  describe("a leaf", () => {
    it.effect("is signed by the root, names the hostname only and matches its key", () =>
      Effect.gen(function* () {
        const authority = yield* LocalCertificateAuthority.make({})
        const hostname = "shop.example.test"
        const issued = yield* authority.issue(hostname)

        const root = new X509Certificate(authority.rootCertificatePem)
        const leaf = new X509Certificate(issued.certificatePem)
        expect(root.ca).toBe(true)
        expect(root.verify(root.publicKey)).toBe(true)
        expect(leaf.ca).toBe(false)
        expect(leaf.verify(root.publicKey)).toBe(true)
        expect(leaf.checkIssued(root)).toBe(true)
        expect(leaf.checkHost(hostname)).toBe(hostname)
        expect(leaf.checkHost("other.example.test")).toBeUndefined()
        expect(leaf.subjectAltName).toBe(`DNS:${hostname}`)
        expect(leaf.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"])
        expect(leaf.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1")
        expect(keyMatches(issued.certificatePem, issued.privateKeyPem)).toBe(true)
        expect(String(issued.privateKeyPem)).not.toContain("PRIVATE KEY")
        expect(issued.chainPem).toBe(authority.rootCertificatePem)
        // A later leaf (the root's key identifier is computed once) names the same issuer key.
        const later = new X509Certificate((yield* authority.issue("later.example.test")).certificatePem)
        expect(later.checkIssued(root)).toBe(true)
        expect(later.verify(root.publicKey)).toBe(true)
      })
    )

    it.effect("is valid for 90 days by default, from now; the root for about ten years", () =>
      Effect.gen(function* () {
        const authority = yield* LocalCertificateAuthority.make({})
        const issued = yield* authority.issue("shop.example.test")
        const leaf = new X509Certificate(issued.certificatePem)
        expect(new Date(leaf.validFrom)).toEqual(issued.notBefore)
        expect(new Date(leaf.validTo)).toEqual(issued.notAfter)
        expect(issued.notBefore.getTime()).toBeLessThanOrEqual(Date.now())
        expect(issued.notBefore.getTime()).toBeGreaterThan(Date.now() - Duration.toMillis("5 minutes"))
        expect(days(issued.notBefore, issued.notAfter)).toBe(90)

        const root = new X509Certificate(authority.rootCertificatePem)
        expect(days(new Date(root.validFrom), new Date(root.validTo))).toBeGreaterThanOrEqual(3652)
      })
    )

    it.effect("takes its validity from the options, and a fresh key and serial each time", () =>
      Effect.gen(function* () {
        const authority = yield* LocalCertificateAuthority.make({ validity: Duration.days(7) })
        const first = yield* authority.issue("Shop.Example.Test")
        const second = yield* authority.issue("shop.example.test")
        expect(days(first.notBefore, first.notAfter)).toBe(7)
        expect(new X509Certificate(first.certificatePem).subjectAltName).toBe("DNS:shop.example.test")
        expect(new X509Certificate(first.certificatePem).serialNumber).not.toBe(
          new X509Certificate(second.certificatePem).serialNumber
        )
        expect(Redacted.value(first.privateKeyPem)).not.toBe(Redacted.value(second.privateKeyPem))
      })
    )

    it.effect("is refused for a name that is not a DNS name", () =>
      Effect.gen(function* () {
        const authority = yield* LocalCertificateAuthority.make({})
        for (const hostname of ["", "shop example.test", "shop..example.test", "-shop.test", "ü.test"]) {
          const error = yield* Effect.flip(authority.issue(hostname))
          expect(error._tag).toBe("CertificateIssuerError")
          expect(error.message).toContain("DNS names only")
        }
      })
    )
  })

  describe("over TLS", () => {
    it.effect("a client trusting only the root connects as the hostname, and is refused as another", () =>
      Effect.gen(function* () {
        const authority = yield* LocalCertificateAuthority.make({})
        const hostname = "shop.example.test"
        const port = yield* httpsServer(yield* authority.issue(hostname))

        expect(yield* fetchAs(port, hostname, authority.rootCertificatePem)).toEqual({ body: "hello" })
        expect(yield* fetchAs(port, "other.example.test", authority.rootCertificatePem)).toEqual({
          error: "ERR_TLS_CERT_ALTNAME_INVALID"
        })
        const stranger = yield* LocalCertificateAuthority.make({})
        expect(yield* fetchAs(port, hostname, stranger.rootCertificatePem)).toEqual({
          error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE"
        })
      })
    )
  })

  describe("a root kept in a directory", () => {
    it.effect("is made once and found again, its key readable by the owner only", () =>
      Effect.gen(function* () {
        const directory = join(yield* scratchDirectory, "ca")
        const first = yield* LocalCertificateAuthority.make({ directory })
        const second = yield* LocalCertificateAuthority.make({ directory })
        const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256
        expect(fingerprint(second.rootCertificatePem)).toBe(fingerprint(first.rootCertificatePem))

        const keyFile = join(directory, LocalCertificateAuthority.rootKeyFile)
        expect(statSync(keyFile).mode & 0o777).toBe(0o600)
        const root = new X509Certificate(first.rootCertificatePem)
        const issued = yield* second.issue("shop.example.test")
        expect(new X509Certificate(issued.certificatePem).verify(root.publicKey)).toBe(true)
      })
    )

    it.live("made by several at once is one root", () =>
      Effect.gen(function* () {
        const directory = yield* scratchDirectory
        const authorities = yield* Effect.all(
          Array.from({ length: 4 }, () => LocalCertificateAuthority.make({ directory })),
          { concurrency: "unbounded" }
        )
        const roots = new Set(authorities.map((authority) => authority.rootCertificatePem))
        expect(roots.size).toBe(1)
      })
    )

    it.effect("fails with a CertificateIssuerError when its certificate is garbage", () =>
      Effect.gen(function* () {
        const directory = yield* scratchDirectory
        yield* LocalCertificateAuthority.make({ directory })
        writeFileSync(join(directory, LocalCertificateAuthority.rootCertificateFile), "not a certificate\n")
        const error = yield* Effect.flip(LocalCertificateAuthority.make({ directory }))
        expect(error._tag).toBe("CertificateIssuerError")
        expect(error.message).toContain("root certificate")
        expect(error.message).toContain(directory)
      })
    )

    it.effect("fails with a CertificateIssuerError when its key is garbage, missing or another's", () =>
      Effect.gen(function* () {
        const directory = yield* scratchDirectory
        const keyFile = join(directory, LocalCertificateAuthority.rootKeyFile)
        yield* LocalCertificateAuthority.make({ directory })

        writeFileSync(keyFile, "not a key\n")
        expect((yield* Effect.flip(LocalCertificateAuthority.make({ directory }))).message).toContain(
          "root key"
        )

        const other = yield* scratchDirectory
        yield* LocalCertificateAuthority.make({ directory: other })
        copyFileSync(join(other, LocalCertificateAuthority.rootKeyFile), keyFile)
        expect((yield* Effect.flip(LocalCertificateAuthority.make({ directory }))).message).toContain(
          "does not match"
        )

        rmSync(keyFile)
        expect((yield* Effect.flip(LocalCertificateAuthority.make({ directory }))).message).toContain(
          `no ${LocalCertificateAuthority.rootKeyFile}`
        )
      })
    )
  })

  describe("as the domain's CertificateIssuer", () => {
    it.effect("an order is Valid at the first poll, with a leaf for its hostname and the key", () =>
      Effect.gen(function* () {
        const issuer = yield* CertificateIssuer
        const hostname = Hostname.make("shop.example.test")
        const order = yield* issuer.startOrder(hostname)
        expect(order).toMatch(/^local:shop\.example\.test:[0-9a-f]+$/)
        expect(yield* issuer.startOrder(hostname)).not.toBe(order)

        const state: OrderState = yield* issuer.pollOrder(order)
        expect(state._tag).toBe("Valid")
        if (state._tag === "Valid") {
          expect(new X509Certificate(state.certificatePem).checkHost(hostname)).toBe(hostname)
          expect(keyMatches(state.certificatePem, state.privateKeyPem)).toBe(true)
          const root = new X509Certificate(state.chainPem)
          expect(new X509Certificate(state.certificatePem).verify(root.publicKey)).toBe(true)
        }
      }).pipe(Effect.provide(LocalCertificateAuthority.issuerLayer({})))
    )

    it.effect("an order it did not open fails with a CertificateIssuerError", () =>
      Effect.gen(function* () {
        const issuer = yield* CertificateIssuer
        for (const ref of ["https://acme.example/order/1", "local:", "local:shop.example.test", "other"]) {
          const error = yield* Effect.flip(issuer.pollOrder(OrderRef.make(ref)))
          expect(error._tag).toBe("CertificateIssuerError")
          expect(error.message).toContain("not an order of the local CA")
        }
      }).pipe(Effect.provide(LocalCertificateAuthority.issuerLayer({})))
    )
  })
})
