/**
 * The built API process (`dist/main.js`) on the embedded default, as a `TestServer`: the same
 * requests and assertions as the in-process flow (`DomainFlow`) then run against what a user starts.
 * It asks the DNS server a test names, runs its own worker loop (embedded storage belongs to one
 * process) and edge, and its two accounts' keys (`alice`, `bob`) are made by the key CLI, as an
 * operator makes them.
 */
import { TestServer } from "@petstore/http/testing"
import { Context, Effect, Layer } from "effect"
import { runCli, startServer, temporaryDirectory } from "./ApiProcess.js"

/** The platform's names for the process: two registrable domains, each of them refused to customers. */
export const processPlatform = {
  platformDomain: "petstore-docs.test",
  cnameTarget: "edge.petstore-cdn.test"
} as const

/** What a flow reaches beside the API: the edge's listeners and the process's data directory. */
export class BuiltApi extends Context.Service<
  BuiltApi,
  {
    readonly edgeHttpPort: number
    readonly edgeHttpsPort: number
    readonly dataDir: string
    /** Everything the process wrote to stdout so far (JSON log lines). */
    readonly stdout: () => string
  }
>()("test/BuiltApi") {}

/**
 * A key of `account`, made by `petstore keys create` where the running server keeps its keys: through
 * its key administration (embedded), or in its database (`DATABASE_URL` in `storage`).
 */
const createKey = (storage: Record<string, string>, account: string) =>
  Effect.gen(function* () {
    const created = yield* Effect.promise(() => runCli(["keys", "create", "--account", account], storage))
    const key = created.stdout.split("\n").find((line) => line.startsWith("pk_live_"))
    if (created.code !== 0 || key === undefined)
      return yield* Effect.die(
        new Error(`petstore keys create --account ${account} failed (${created.code}): ${created.stderr}`)
      )
    return key
  })

/** The edge's ports, from its start-up line (both listen on ports the system chose). */
const edgePortsOf = (stdout: string) => {
  const announced = /edge serving custom domains on http:\/\/[^\s"]+:(\d+) and https:\/\/[^\s"]+:(\d+)/.exec(
    stdout
  )
  if (announced === null) throw new Error(`the process did not say where its edge listens:\n${stdout}`)
  return { http: Number(announced[1]), https: Number(announced[2]) }
}

/**
 * The built process asking `dnsServer` (`host:port`), with `env` added to its configuration; stopped
 * with SIGTERM (and expected to exit cleanly) when the layer's scope closes.
 */
export const builtApiLayer = (dnsServer: string, env: Record<string, string> = {}) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const dataDir = yield* Effect.promise(temporaryDirectory)
      const server = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const started = await startServer({
            PETSTORE_DATA_DIR: dataDir,
            PETSTORE_DNS_SERVERS: dnsServer,
            PETSTORE_PLATFORM_DOMAIN: processPlatform.platformDomain,
            PETSTORE_CNAME_TARGET: processPlatform.cnameTarget,
            PETSTORE_WORKER_POLL_INTERVAL: "100 millis",
            // The flows click Verify again as soon as they change DNS; the cool-down has tests of its own.
            PETSTORE_VERIFY_COOLDOWN: "0 seconds",
            ...env
          })
          await started.listening(60_000)
          return started
        }),
        (started) =>
          Effect.promise(async () => {
            const exit = await started.terminate()
            if (exit.code !== 0) throw new Error(`the server exited with ${exit.code}:\n${started.output()}`)
          })
      )
      const edge = edgePortsOf(server.stdout())
      const storage = {
        PETSTORE_DATA_DIR: dataDir,
        ...(env.DATABASE_URL === undefined ? {} : { DATABASE_URL: env.DATABASE_URL })
      }
      const key = yield* createKey(storage, "alice")
      const otherKey = yield* createKey(storage, "bob")
      const { baseUrl } = server
      const testServer = TestServer.of({
        baseUrl,
        key,
        otherKey,
        request: (path, options = {}) =>
          Effect.promise(() => {
            const headers = new Headers(options.headers)
            const chosen = options.key === undefined ? key : options.key
            if (chosen !== null) headers.set("authorization", `Bearer ${chosen}`)
            return fetch(baseUrl + path, { ...options, headers })
          }),
        metrics: Effect.die(
          new Error("the process serves its metrics on a listener of its own, not set up here")
        )
      })
      const api = BuiltApi.of({
        edgeHttpPort: edge.http,
        edgeHttpsPort: edge.https,
        dataDir,
        stdout: server.stdout
      })
      return Context.add(Context.make(TestServer, testServer), BuiltApi, api)
    })
  )
