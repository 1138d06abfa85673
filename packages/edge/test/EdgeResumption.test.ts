/**
 * TLS session resumption on the HTTPS listener, with real clients of each TLS version offering the
 * session of an earlier connection: a name served now is served (not 421, which a resumed TLS 1.2
 * session got when the edge resumed it: Node then reports no server name), and a name removed since
 * is refused at the handshake (a resumed handshake used to skip the certificate choice, and so the
 * refusal). Every handshake is a full one, decided from current state.
 */
import { describe, expect, layer } from "@effect/vitest"
import { removeDomain } from "@petstore/custom-domains"
import { Effect } from "effect"
import { EdgeAddresses } from "../src/EdgeServer.js"
import { exchange, type TlsVersion } from "./support/EdgeClient.js"
import { account, servedDomain, TestEdgeLive, trustedRoot } from "./support/EdgeFixture.js"

const httpsPort = Effect.map(EdgeAddresses, (addresses) => addresses.https.port)

/** A served name, and the session of a first connection to it (answered 200). */
const firstSession = (label: string, version: TlsVersion) =>
  Effect.gen(function* () {
    const { projectId, hostname } = yield* servedDomain(label, `docs.${label}.com`)
    const port = yield* httpsPort
    const ca = yield* trustedRoot
    const first = yield* exchange(port, { servername: hostname, ca, version })
    expect(first._tag === "Answered" && first.status).toBe(200)
    const session = first._tag === "Answered" ? first.session : undefined
    expect(session).toBeDefined()
    return { projectId, hostname, port, ca, session }
  })

layer(TestEdgeLive, { excludeTestServices: true, timeout: 60_000 })(
  "a client offering an earlier session",
  (it) => {
    for (const [version, label] of [
      ["TLSv1.2", "tls12"],
      ["TLSv1.3", "tls13"]
    ] as ReadonlyArray<readonly [TlsVersion, string]>) {
      describe(version, () => {
        it.effect("is served the name it was served before, with 200", () =>
          Effect.gen(function* () {
            const { hostname, port, ca, session } = yield* firstSession(`resume-${label}`, version)
            for (let n = 0; n < 3; n++) {
              const again = yield* exchange(port, { servername: hostname, ca, version, session })
              expect(again).toMatchObject({ _tag: "Answered", status: 200, resumed: false })
            }
          })
        )

        it.effect("is refused at the handshake once the name is removed", () =>
          Effect.gen(function* () {
            const { projectId, hostname, port, ca, session } = yield* firstSession(
              `removed-${label}`,
              version
            )
            yield* removeDomain(account, projectId, hostname)
            const again = yield* exchange(port, { servername: hostname, ca, version, session })
            expect(again._tag).toBe("Refused")
          })
        )
      })
    }
  }
)
