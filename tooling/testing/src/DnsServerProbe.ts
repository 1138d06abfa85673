/**
 * Whether a DNS server on loopback is up: it answers a question at all (an error code from the server
 * counts as an answer; a timeout or a refused connection does not). The readiness probe of the DNS
 * servers the tests start.
 */
import { Resolver } from "node:dns/promises"
import { Effect } from "effect"

/** Succeeds when `server` (`127.0.0.1:<port>`) answers; fails while it does not yet. */
export const answers = (server: string): Effect.Effect<void, unknown> =>
  Effect.tryPromise(async () => {
    const resolver = new Resolver({ timeout: 200, tries: 1 })
    resolver.setServers([server])
    try {
      await resolver.resolve4("readiness.probe.invalid")
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (code === "ETIMEOUT" || code === "ECONNREFUSED") throw error
    }
  })
