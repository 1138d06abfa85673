/**
 * The built product and the built baselines (Fastify with pino's request log, Fastify without a
 * logger, raw `node:http`) on one throwaway database, for tests that send them the same requests and
 * read what they log: processes and database are released by `cleanUp` (in `afterAll`).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { LoopbackServer, NodeProcess, TestDatabase } from "@petstore/testing"
import { Effect, Exit, Scope } from "effect"

export const benchDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const repositoryRoot = resolve(benchDirectory, "../..")

const cleanups = NodeProcess.makeCleanups()
export const cleanUp = cleanups.releaseAll

export const temporaryDirectory = async (prefix: string): Promise<string> => {
  const directory = await mkdtemp(join(tmpdir(), prefix))
  cleanups.register(() => rm(directory, { recursive: true, force: true }))
  return directory
}

/** A fresh database on the test PostgreSQL server, dropped at clean-up; fails when it is unreachable. */
export const freshDatabase = async (): Promise<Effect.Success<typeof TestDatabase.make>> => {
  const scope = Scope.makeUnsafe()
  cleanups.register(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  return Effect.runPromise(Scope.provide(scope)(TestDatabase.make))
}

export interface HttpResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
}

export interface RequestOptions {
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** Sends the body with `Transfer-Encoding: chunked` (no `Content-Length`). */
  readonly chunked?: boolean
}

/** One request on a connection of its own. */
export const send = (baseUrl: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> =>
  new Promise((resolvePromise, reject) => {
    const headers: Record<string, string> = { connection: "close", ...options.headers }
    if (options.body !== undefined && options.chunked !== true)
      headers["content-length"] = String(Buffer.byteLength(options.body))
    const req = httpRequest(`${baseUrl}${path}`, { method: options.method ?? "GET", headers, agent: false })
    req.setTimeout(15_000, () => req.destroy(new Error(`${path}: no answer in 15 s`)))
    req.once("error", reject)
    req.once("response", (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => {
        text += chunk
      })
      response.once("end", () =>
        resolvePromise({ status: response.statusCode ?? 0, headers: response.headers, text })
      )
    })
    if (options.body !== undefined && options.chunked === true) {
      // Several chunks, so that a server cannot mistake it for a body of known length.
      const body = Buffer.from(options.body)
      for (let offset = 0; offset < body.length; offset += 16_384)
        req.write(body.subarray(offset, offset + 16_384))
    }
    req.end(options.chunked === true ? undefined : options.body)
  })

/** Polls `GET /v1/pets` with `key` until it answers 200 (the process is killed and the output shown otherwise). */
const untilAnswering = async (
  process_: NodeProcess.NodeProcess,
  baseUrl: string,
  key: string,
  what: string
) => {
  const startedAt = Date.now()
  for (;;) {
    if (process_.hasExited()) throw new Error(`${what} exited before answering\n${process_.output()}`)
    if (Date.now() - startedAt > 60_000)
      throw new Error(`${what} did not answer within 60 s\n${process_.output()}`)
    const status = await send(baseUrl, "/v1/pets", { headers: { authorization: `Bearer ${key}` } }).then(
      (response) => response.status,
      () => 0
    )
    if (status === 200) return
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50))
  }
}

export type ServerName = "product" | "fastify-pino" | "fastify" | "raw"
export const serverNames: ReadonlyArray<ServerName> = ["product", "fastify-pino", "fastify", "raw"]

const fastifyScript = join(benchDirectory, "dist/baseline/fastify.js")

const scripts: Readonly<Record<ServerName, string>> = {
  product: join(repositoryRoot, "apps/api/dist/main.js"),
  "fastify-pino": fastifyScript,
  fastify: fastifyScript,
  raw: join(benchDirectory, "dist/baseline/raw.js")
}

/** Each server's own settings, as the benchmark runs it (`src/Servers.ts`). */
const ownEnvironment = (name: ServerName, key: string, dataDirectory: string): Record<string, string> => {
  switch (name) {
    case "product":
      return {
        LOG_LEVEL: "Info",
        PETSTORE_BOOTSTRAP_KEY: key,
        PETSTORE_DATA_DIR: dataDirectory,
        PETSTORE_SECRET_KEY: "bench-test"
      }
    case "fastify-pino":
      return { BENCH_FASTIFY_LOG: "pino" }
    case "fastify":
      return { BENCH_FASTIFY_LOG: "off" }
    case "raw":
      return {}
  }
}

export interface TestServer {
  readonly url: string
  /** What it has written to stdout so far (its log lines). */
  readonly stdout: () => string
}

/**
 * Starts the product first (it migrates the database and registers `key`), then the baselines on
 * the same database.
 */
export const startAllServers = async (
  databaseUrl: string,
  key: string
): Promise<Readonly<Record<ServerName, TestServer>>> => {
  const dataDirectory = await temporaryDirectory("petstore-bench-test-")
  const servers: Partial<Record<ServerName, TestServer>> = {}
  for (const name of serverNames) {
    const port = await Effect.runPromise(LoopbackServer.freePort)
    const env: Record<string, string> = { DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1" }
    const started = NodeProcess.spawnNode(scripts[name], {
      cwd: repositoryRoot,
      env: { ...env, ...ownEnvironment(name, key, dataDirectory) }
    })
    cleanups.register(started.kill)
    const baseUrl = `http://127.0.0.1:${port}`
    await untilAnswering(started, baseUrl, key, name)
    servers[name] = { url: baseUrl, stdout: started.stdout }
  }
  const { product, raw, fastify } = servers
  const fastifyPino = servers["fastify-pino"]
  if (product === undefined || fastifyPino === undefined || fastify === undefined || raw === undefined)
    throw new Error("a server did not start")
  return { product, "fastify-pino": fastifyPino, fastify, raw }
}
