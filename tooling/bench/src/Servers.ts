/**
 * The servers under test and their lifecycle: each is spawned with this process's Node
 * (`process.execPath`, so every server runs on the same binary), pinned to the server core, timed
 * from spawn to its first `200` on `/v1/pets` (cold start), measured for resident memory after load
 * (`VmRSS`), and stopped. Every server's stdout goes to `/dev/null`, so the two that log a JSON line
 * per request (the product and Fastify with pino) pay for writing it and nothing for reading it.
 */
import { spawn, spawnSync } from "node:child_process"
import { readFile } from "node:fs/promises"
import { request } from "node:http"
import { createServer } from "node:net"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { track } from "./Children.js"
import { pinned, serverCore } from "./Pinning.js"

export const serverNames = ["product", "fastify-pino", "fastify", "raw"] as const
export type ServerName = (typeof serverNames)[number]

/**
 * The server the others are compared with: Fastify logging one line per request with pino, as a
 * Fastify service in production does and as the product does.
 */
export const referenceServer: ServerName = "fastify-pino"

/** The second reference, shown beside the first: the same Fastify application without any logger. */
export const noLogReferenceServer: ServerName = "fastify"

export const serverTitles: Readonly<Record<ServerName, string>> = {
  product: "product (Effect)",
  "fastify-pino": "Fastify 5 + pg + pino log",
  fastify: "Fastify 5 + pg, no log",
  raw: "node:http + pg, no log"
}

const distDirectory = dirname(fileURLToPath(import.meta.url))
export const repositoryRoot = resolve(distDirectory, "../../..")
const productScript = join(repositoryRoot, "apps/api/dist/main.js")

const fastifyScript = join(distDirectory, "baseline/fastify.js")

const scripts: Readonly<Record<ServerName, string>> = {
  product: productScript,
  "fastify-pino": fastifyScript,
  fastify: fastifyScript,
  raw: join(distDirectory, "baseline/raw.js")
}

export interface ServerEnvironment {
  readonly databaseUrl: string
  /** The key the product registers at start-up (`PETSTORE_BOOTSTRAP_KEY`); the baselines read it from `api_keys`. */
  readonly key: string
  /** The product's data directory (its generated CA files); a temporary one. */
  readonly dataDirectory: string
}

/** The environment of a server: this process's, minus anything that configures the product, plus its own. */
const environmentFor = (name: ServerName, port: number, env: ServerEnvironment): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = {}
  for (const [variable, value] of Object.entries(process.env)) {
    if (
      variable.startsWith("PETSTORE_") ||
      variable.startsWith("BENCH_") ||
      ["DATABASE_URL", "LOG_LEVEL", "PORT", "HOST"].includes(variable)
    )
      continue
    base[variable] = value
  }
  const common = {
    ...base,
    DATABASE_URL: env.databaseUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "production"
  }
  if (name === "fastify-pino") return { ...common, BENCH_FASTIFY_LOG: "pino" }
  if (name !== "product") return common
  return {
    ...common,
    // Its production default: one JSON `request` line per answered request, as Fastify + pino writes.
    LOG_LEVEL: "Info",
    PETSTORE_EDGE_HTTP_PORT: "0",
    PETSTORE_EDGE_HTTPS_PORT: "0",
    PETSTORE_SECRET_KEY: "bench",
    PETSTORE_DATA_DIR: env.dataDirectory,
    PETSTORE_BOOTSTRAP_KEY: env.key,
    // The baselines limit nothing: the product's buckets are set beyond the load (still counted per request).
    PETSTORE_RATE_LIMIT_PER_KEY: "1000000",
    PETSTORE_RATE_LIMIT_PER_ADDRESS: "1000000"
  }
}

/** A port nobody listens on right now (the system's choice for port 0, released at once). */
const freePort = (): Promise<number> =>
  new Promise((resolvePromise, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => (port > 0 ? resolvePromise(port) : reject(new Error("no port assigned"))))
    })
  })

/** The status of one `GET path` with the key, or undefined when nothing answered. */
const probe = (port: number, path: string, key: string): Promise<number | undefined> =>
  new Promise((resolvePromise) => {
    const req = request(
      { host: "127.0.0.1", port, path, headers: { authorization: `Bearer ${key}` }, agent: false },
      (response) => {
        response.resume()
        response.once("end", () => resolvePromise(response.statusCode))
      }
    )
    req.setTimeout(5_000, () => req.destroy())
    req.once("error", () => resolvePromise(undefined))
    req.end()
  })

export interface RunningServer {
  readonly name: ServerName
  readonly port: number
  readonly url: string
  readonly pid: number
  /** Milliseconds from spawn to the first `200` on `/v1/pets`. */
  readonly coldStartMs: number
  /** Resident memory now, MiB. */
  readonly rssMiB: () => Promise<number>
  /** SIGTERM, then SIGKILL after 10 seconds. */
  readonly stop: () => Promise<void>
}

/**
 * What a server that failed to start printed. Its stdout is discarded during a run (see above), so
 * the start is repeated once, unpinned, with both streams kept, for at most 15 seconds.
 */
const failedStartOutput = async (name: ServerName, env: ServerEnvironment): Promise<string> => {
  const port = await freePort()
  const again = spawnSync(process.execPath, [scripts[name]], {
    cwd: repositoryRoot,
    env: environmentFor(name, port, env),
    encoding: "utf8",
    timeout: 15_000,
    killSignal: "SIGKILL",
    maxBuffer: 64 * 1024 * 1024
  })
  return `the same start again, its output:\n--- stdout\n${again.stdout.slice(-20_000)}\n--- stderr\n${again.stderr.slice(-20_000)}`
}

export const startServer = async (name: ServerName, env: ServerEnvironment): Promise<RunningServer> => {
  const port = await freePort()
  const [command, args] = pinned(serverCore, process.execPath, [scripts[name]])
  let stderr = ""
  const startedAt = performance.now()
  const child = spawn(command, args, {
    cwd: repositoryRoot,
    env: environmentFor(name, port, env),
    stdio: ["ignore", "ignore", "pipe"]
  })
  track(child)
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000)
  })
  let exitStatus = ""
  const exited = new Promise<void>((resolvePromise) =>
    child.once("exit", (code, signal) => {
      exitStatus = signal === null ? `exit code ${code}` : `signal ${signal}`
      resolvePromise()
    })
  )
  let hasExited = false
  void exited.then(() => {
    hasExited = true
  })

  let coldStartMs: number | undefined
  while (coldStartMs === undefined) {
    if (hasExited)
      throw new Error(
        `${name} exited before answering; stderr:\n${stderr}\n${await failedStartOutput(name, env)}`
      )
    if (performance.now() - startedAt > 60_000) {
      child.kill("SIGKILL")
      await exited
      throw new Error(
        `${name} did not answer 200 on /v1/pets within 60 s; stderr:\n${stderr}\n${await failedStartOutput(name, env)}`
      )
    }
    const status = await probe(port, "/v1/pets", env.key)
    if (status === 200) coldStartMs = performance.now() - startedAt
    else await new Promise((resolvePromise) => setTimeout(resolvePromise, 5))
  }

  const pid = child.pid ?? 0
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    pid,
    coldStartMs,
    rssMiB: async () => {
      if (hasExited) throw new Error(`${name} stopped during the load (${exitStatus}); stderr:\n${stderr}`)
      const status = await readFile(`/proc/${pid}/status`, "utf8")
      const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN)
      return kib / 1024
    },
    stop: async () => {
      if (hasExited) return
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(timer)
    }
  }
}
