/**
 * Which certificate an HTTPS handshake gets, chosen by its SNI name. There is no default
 * certificate: a name the edge would not answer (unknown, removed, its project on the free plan) or
 * has no certificate for gets its handshake refused, so the edge never presents a certificate for a
 * name it does not serve. The decision is the edge's current one (`EdgeDecisions`: from memory once
 * looked up, dropped at any change); the parsed secure contexts are kept per certificate, since
 * parsing keys is the costly part. A client that has made storage look up too many unknown names
 * gets its handshakes for names not yet known refused until it may again.
 */
import { createSecureContext, type SecureContext, TLSSocket } from "node:tls"
import type { StoredCertificate } from "@petstore/certificates"
import { DnsName } from "@petstore/domains"
import { type Context, Effect, Exit, Option, Redacted } from "effect"
import type { EdgeDecisions } from "./EdgeDecisions.js"

/** A handshake waits at most this long for storage before it is refused. */
const lookupDeadline = "10 seconds"

/** Secure contexts kept; past it the oldest is dropped (it is rebuilt on its next handshake). */
const cachedContexts = 1_000

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
  this: unknown,
  servername: string,
  callback: (error: Error | null, context?: SecureContext) => void
) => void

/**
 * The client's address. Node calls the SNI callback as a method of the server's TLS socket (its
 * documentation does not say so, hence the check): without it, the handshake is not limited.
 */
const clientOf = (socket: unknown): string | undefined =>
  socket instanceof TLSSocket ? socket.remoteAddress : undefined

/**
 * The `SNICallback` of the HTTPS server: asks `decisions` for the name and answers with its secure
 * context, or refuses the handshake. Storage failures refuse too, and are logged (with the loggers
 * of `context`); the client only sees the handshake fail.
 */
export const makeSniCallback = (
  decisions: EdgeDecisions["Service"],
  context: Context.Context<never>
): SniCallback => {
  const secureContextOf = makeSecureContexts()
  const run = Effect.runCallbackWith(context)
  return function (servername, callback) {
    const name = DnsName.fromHost(servername)
    const lookup = decisions.resolve(name, clientOf(this)).pipe(
      Effect.timeout(lookupDeadline),
      Effect.flatMap((resolution) => {
        const certificate =
          resolution._tag === "Decided" && resolution.decision.action !== "none"
            ? resolution.certificate
            : Option.none()
        return Option.isSome(certificate)
          ? Effect.map(
              Effect.try(() => secureContextOf(name, certificate.value)),
              Option.some
            )
          : Effect.succeedNone
      }),
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
