/**
 * The certificate authority the options choose: the local CA, kept in the data directory when one is
 * given (and in memory otherwise), or an ACME CA, whose account key is kept there; either is built on
 * the first order, never at start.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { CertificateIssuer } from "@petstore/certificates"
import { Hostname } from "@petstore/domains"
import { MemoryHttp01ChallengeStore } from "@petstore/store-memory"
import { Effect, Layer } from "effect"
import { CertificateAuthority } from "../src/index.js"
import { rootCertificateFile } from "../src/LocalCaFiles.js"

/** A fresh directory, removed when the scope closes. */
const scratchDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "certificate-authority-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

const issuerOf = (options: CertificateAuthority.Options) =>
  Layer.build(
    CertificateAuthority.issuerLayer(options).pipe(Layer.provide(MemoryHttp01ChallengeStore.layer))
  ).pipe(Effect.map((context) => Layer.succeedContext(context)))

const hostname = Hostname.make("shop.example.test")

/** A loopback HTTP server that has no ACME directory (404 to everything), closed with the scope. */
const notAnAcmeCa = Effect.acquireRelease(
  Effect.callback<ReturnType<typeof createServer>>((resume) => {
    const server = createServer((_request, response) => response.writeHead(404).end())
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) =>
    Effect.callback<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
).pipe(
  Effect.map((server) => new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/directory`))
)

describe("CertificateAuthority.issuerLayer", () => {
  it.live("no ACME CA: the local CA, its root kept in the data directory once the first order comes", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const dataDirectory = yield* scratchDirectory
        const root = join(dataDirectory, CertificateAuthority.internalCaDirectory, rootCertificateFile)
        const issuer = yield* issuerOf({ dataDirectory })
        expect(existsSync(root)).toBe(false)
        const state = yield* Effect.flatMap(CertificateIssuer, (ca) =>
          Effect.flatMap(ca.startOrder(hostname), ca.pollOrder)
        ).pipe(Effect.provide(issuer))
        expect(state._tag).toBe("Valid")
        expect(existsSync(root)).toBe(true)
      })
    )
  )

  it.live("no data directory: the local CA in memory", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const issuer = yield* issuerOf({})
        const order = yield* Effect.flatMap(CertificateIssuer, (ca) => ca.startOrder(hostname)).pipe(
          Effect.provide(issuer)
        )
        expect(order).toMatch(/^local:shop\.example\.test:/)
      })
    )
  )

  it.live("an ACME CA: asked on the first order, with the account key made in the data directory", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const dataDirectory = yield* scratchDirectory
        const directoryUrl = yield* notAnAcmeCa
        const issuer = yield* issuerOf({ dataDirectory, acme: { directoryUrl, email: "ops@example.test" } })
        const accountKey = join(dataDirectory, CertificateAuthority.accountKeyFile)
        expect(existsSync(accountKey)).toBe(false)
        const error = yield* Effect.flip(
          Effect.flatMap(CertificateIssuer, (ca) => ca.startOrder(hostname)).pipe(Effect.provide(issuer))
        )
        expect(error._tag).toBe("CertificateIssuerError")
        expect(error.message).toContain(directoryUrl.href)
        expect(statSync(accountKey).mode & 0o777).toBe(0o600)
        expect(existsSync(join(dataDirectory, CertificateAuthority.internalCaDirectory))).toBe(false)
      })
    )
  )
})
