/**
 * Pebble, the ACME test CA, for a test's scope, run with a configuration the test writes (its ports,
 * its TLS files) and resolving names through the DNS server given. From the
 * `ghcr.io/letsencrypt/pebble` image when a container runtime answers (the configuration's directory
 * is copied into it), else Debian's `pebble` package (`TestServerSource`).
 */
import { dirname } from "node:path"
import { Duration, type Effect, type Scope } from "effect"
import type { LoopbackServerError } from "./LoopbackServer.js"
import * as TestServerProcess from "./TestServerProcess.js"

export const program: TestServerProcess.ServerProgram = {
  program: "pebble",
  install: "Debian's `pebble` package",
  image: { name: "ghcr.io/letsencrypt/pebble:2.9.0", entrypoint: "/app" }
}

export interface PebbleOptions {
  /** Pebble's JSON configuration; every file it names is in the same directory. */
  readonly config: string
  /** Where Pebble resolves names: `127.0.0.1:<port>`. */
  readonly dnsServer: string
  /** Pebble's `PEBBLE_*` switches. */
  readonly environment: Readonly<Record<string, string>>
  /** Succeeds once Pebble answers (its directory over HTTPS, which only the test's CA can check). */
  readonly ready: Effect.Effect<void, unknown>
}

export const start = (options: PebbleOptions): Effect.Effect<void, LoopbackServerError, Scope.Scope> =>
  TestServerProcess.start(program, () => ({
    args: ["-config", options.config, "-dnsserver", options.dnsServer],
    environment: options.environment,
    directories: [dirname(options.config)],
    ready: options.ready,
    readyWithin: Duration.seconds(15)
  }))
