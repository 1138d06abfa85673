/**
 * The three servers under test and their lifecycle: each is spawned pinned to the server core, timed
 * from spawn to its first `200` on `/v1/pets` (cold start), measured for resident memory after load
 * (`VmRSS`), and stopped.
 */
import { spawn } from "node:child_process"
import { readFile } from "node:fs/promises"
import { request } from "node:http"
import { createServer } from "node:net"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { track } from "./Children.js"
import { pinned, serverCore } from "./Pinning.js"

export const serverNames = ["product", "fastify", "raw"] as const
export type ServerName = (typeof serverNames)[number]

/** The server the others are compared with. */
export const referenceServer: ServerName = "fastify"

export const serverTitles: Readonly<Record<ServerName, string>> = {
  product: "product (Effect)",
  fastify: "Fastify 5 + pg",
  raw: "node:http + pg"
}

const distDirectory = dirname(fileURLToPath(import.meta.url))
export const repositoryRoot = resolve(distDirectory, "../../..")
const productScript = join(repositoryRoot, "apps/api/dist/main.js")

const scripts: Readonly<Record<ServerName, string>> = {
  product: productScript,
  fastify: join(distDirectory, "baseline/fastify.js"),
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
    if (variable.startsWith("PETSTORE_") || ["DATABASE_URL", "LOG_LEVEL", "PORT", "HOST"].includes(variable))
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
  if (name !== "product") return common
  return {
    ...common,
    // Effect reads log levels by label: `Warn` (the README's `Warning` is refused at start-up).
    LOG_LEVEL: "Warn",
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
export const freePort = (): Promise<number> =>
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

export const startServer = async (name: ServerName, env: ServerEnvironment): Promise<RunningServer> => {
  const port = await freePort()
  const [command, args] = pinned(serverCore, process.execPath, [scripts[name]])
  let output = ""
  const startedAt = performance.now()
  const child = spawn(command, args, {
    cwd: repositoryRoot,
    env: environmentFor(name, port, env),
    stdio: ["ignore", "pipe", "pipe"]
  })
  track(child)
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000)
  }
  child.stdout?.on("data", collect)
  child.stderr?.on("data", collect)
  const exited = new Promise<void>((resolvePromise) => child.once("exit", () => resolvePromise()))
  let hasExited = false
  void exited.then(() => {
    hasExited = true
  })

  let coldStartMs: number | undefined
  while (coldStartMs === undefined) {
    if (hasExited) throw new Error(`${name} exited before answering:\n${output}`)
    if (performance.now() - startedAt > 60_000) {
      child.kill("SIGKILL")
      throw new Error(`${name} did not answer 200 on /v1/pets within 60 s:\n${output}`)
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
