/**
 * `dnsmasq` for a test's scope: a DNS server answering a fixed zone given as dnsmasq options
 * (`--local`, `--host-record`, `--dns-rr`…), on a free loopback port, for what pebble-challtestsrv
 * cannot answer (NXDOMAIN, REFUSED, CAA flags). From a small image built on `alpine` when a container
 * runtime answers (no registry publishes an official one), else Debian's `dnsmasq-base`
 * (`TestServerSource`).
 */
import { fileURLToPath } from "node:url"
import { Effect, type Scope } from "effect"
import * as DnsServerProbe from "./DnsServerProbe.js"
import { freePort, type LoopbackServerError, startWithRetry } from "./LoopbackServer.js"
import * as TestServerProcess from "./TestServerProcess.js"

export const program: TestServerProcess.ServerProgram = {
  program: "dnsmasq",
  install: "Debian's `dnsmasq-base` package",
  image: {
    name: "petstore-test-dnsmasq:alpine-3.22",
    entrypoint: "/usr/sbin/dnsmasq",
    dockerfileDirectory: fileURLToPath(new URL("../containers/dnsmasq", import.meta.url))
  }
}

/** dnsmasq answering `zone` only (nothing read from the machine, nothing forwarded), at `127.0.0.1:<port>`. */
export const start = (
  zone: ReadonlyArray<string>
): Effect.Effect<{ readonly server: string }, LoopbackServerError, Scope.Scope> =>
  startWithRetry(
    Effect.gen(function* () {
      const port = yield* freePort
      const server = `127.0.0.1:${port}`
      yield* TestServerProcess.start(program, (source) => ({
        args: [
          "--keep-in-foreground",
          "--log-facility=-",
          "--conf-file=/dev/null",
          "--pid-file=",
          "--no-resolv",
          "--no-hosts",
          "--no-poll",
          "--bind-interfaces",
          "--listen-address=127.0.0.1",
          `--port=${port}`,
          // Started as root, dnsmasq switches to the user its build names, which Debian's dnsmasq-base
          // does not create (nor may an image): stay root there.
          ...(source._tag === "Container" || process.getuid?.() === 0 ? ["--user=root"] : []),
          ...zone
        ],
        ready: DnsServerProbe.answers(server)
      }))
      return { server }
    })
  )
