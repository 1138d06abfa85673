/**
 * Which certificate an HTTPS handshake gets, chosen by its SNI name. There is no default
 * certificate: a name the edge would not answer (unknown, removed, its project on the free plan) or
 * has no certificate for gets its handshake refused, so the edge never presents a certificate for a
 * name it does not serve. The decision is taken from current state at every handshake; only the
 * parsed secure contexts are kept, per certificate, since parsing keys is the costly part.
 */
import { createSecureContext, type SecureContext } from "node:tls"
import {
  CertificateStore,
  type DomainRepository,
  Hostname,
  type PlatformSettings,
  type ProjectRepository,
  resolveEdge,
  type StoredCertificate
} from "@petstore/domain"
import { type Context, Effect, Exit, Option, Redacted, Schema } from "effect"
import { hostName } from "./EdgeRequest.js"

/** What choosing a certificate reads. */
export type SniServices = ProjectRepository | DomainRepository | PlatformSettings | CertificateStore

/** A handshake waits at most this long for storage before it is refused. */
const lookupDeadline = "10 seconds"

/** Secure contexts kept; past it the oldest is dropped (it is rebuilt on its next handshake). */
const cachedContexts = 1_000

/**
 * The stored certificate of `name` (a Host or SNI name), if it has one. Names that cannot be a
 * stored hostname (an address, a single label) have none.
 */
export const findCertificate = (name: string) =>
  Option.match(Schema.decodeOption(Hostname)(hostName(name)), {
    onNone: () => Effect.succeedNone,
    onSome: (hostname) => Effect.flatMap(CertificateStore, (certificates) => certificates.find(hostname))
  })

/** The certificate to present for `servername`: only for a name served or redirected right now. */
export const certificateFor = (servername: string) =>
  Effect.gen(function* () {
    const decision = yield* resolveEdge(hostName(servername))
    if (decision.action === "none") return Option.none<StoredCertificate>()
    return yield* findCertificate(servername)
  })

/** Builds secure contexts, reusing the one of a certificate already seen. */
const makeSecureContexts = () => {
  const contexts = new Map<string, { readonly certificatePem: string; readonly context: SecureContext }>()
  return (hostname: string, certificate: StoredCertificate): SecureContext => {
    const cached = contexts.get(hostname)
    if (cached !== undefined && cached.certificatePem === certificate.certificatePem) return cached.context
    const context = createSecureContext({
      cert: `${certificate.certificatePem.trimEnd()}\n${certificate.chainPem}`,
      key: Redacted.value(certificate.privateKeyPem)
    })
    contexts.delete(hostname)
    contexts.set(hostname, { certificatePem: certificate.certificatePem, context })
    if (contexts.size > cachedContexts) {
      const oldest = contexts.keys().next()
      if (oldest.done !== true) contexts.delete(oldest.value)
    }
    return context
  }
}

type SniCallback = (
  servername: string,
  callback: (error: Error | null, context?: SecureContext) => void
) => void

/**
 * The `SNICallback` of the HTTPS server: looks the name up with `context` (which provides the stores)
 * and answers with its secure context, or refuses the handshake. Storage failures refuse too, and
 * are logged; the client only sees the handshake fail.
 */
export const makeSniCallback = (context: Context.Context<SniServices>): SniCallback => {
  const secureContextOf = makeSecureContexts()
  const run = Effect.runCallbackWith(context)
  return (servername, callback) => {
    const lookup = certificateFor(servername).pipe(
      Effect.timeout(lookupDeadline),
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeedNone,
          onSome: (certificate) =>
            Effect.map(
              Effect.try(() => secureContextOf(hostName(servername), certificate)),
              Option.some
            )
        })
      ),
      Effect.tapCause((cause) =>
        Effect.logWarning("edge: no certificate could be chosen, the handshake is refused", cause)
      )
    )
    run(lookup, {
      onExit: (exit) => {
        const context = Exit.isSuccess(exit) ? exit.value : Option.none()
        if (Option.isSome(context)) callback(null, context.value)
        else callback(new Error("no certificate for this name"))
      }
    })
  }
}
