/**
 * The built API on PostgreSQL with worker processes beside it, as the webhook tests run them: one
 * environment both read (the DNS server, the platform, private receivers allowed, a short retry base
 * and the secret that seals webhook secrets, which they must share), the API listening with a key of
 * its own, and workers spawned from the worker's build, killed when the file's tests end.
 */
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll } from "@effect/vitest"
import { NodeProcess } from "@petstore/testing"
import { Effect } from "effect"
import { randomKey, type ServerProcess, send, startServer, temporaryDirectory } from "./ApiProcess.js"
import { processPlatform } from "./BuiltApiServer.js"

/** What the API and the workers both read, on `databaseUrl`, asking `dnsServer`. */
export const sharedEnv = (dnsServer: string, databaseUrl: string, secretKey: string) => ({
  DATABASE_URL: databaseUrl,
  PETSTORE_DNS_SERVERS: dnsServer,
  PETSTORE_PLATFORM_DOMAIN: processPlatform.platformDomain,
  PETSTORE_CNAME_TARGET: processPlatform.cnameTarget,
  PETSTORE_WEBHOOK_ALLOW_PRIVATE: "true",
  PETSTORE_WEBHOOK_RETRY_BASE: "200 millis",
  // Webhook secrets are sealed with it: the API and the workers must share it.
  PETSTORE_SECRET_KEY: secretKey
})

export interface PostgresApi {
  readonly server: ServerProcess
  /** A request with the API's key; `json()` reads the answer. */
  readonly call: (method: string, path: string, body?: unknown) => ReturnType<typeof send>
}

/** The API on `env`, listening, with a bootstrap key of its own. On PostgreSQL it runs no loop: only workers deliver. */
export const startPostgresApi = async (env: Record<string, string>): Promise<PostgresApi> => {
  const key = randomKey()
  const server = await startServer({
    ...env,
    PETSTORE_DATA_DIR: join(await temporaryDirectory(), "api-data"),
    PETSTORE_BOOTSTRAP_KEY: key
  })
  await server.listening(60_000)
  return {
    server,
    call: (method, path, body) =>
      send(server.baseUrl, path, { method, key, ...(body === undefined ? {} : { body }) })
  }
}

const workerDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../../../worker")

/** Spawns workers from the worker's build, each with a data directory of its own; all killed after the file. */
export const workerSpawner = () => {
  const workers = NodeProcess.makeCleanups()
  afterAll(workers.releaseAll)
  return (env: Record<string, string>) =>
    Effect.promise(async () => {
      const dataDir = join(await temporaryDirectory(), "worker-data")
      const worker = NodeProcess.spawnNode(join(workerDirectory, "dist/main.js"), {
        cwd: workerDirectory,
        env: { PETSTORE_DATA_DIR: dataDir, ...env }
      })
      workers.register(worker.kill)
      return worker
    })
}
