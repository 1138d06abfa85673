/**
 * The built product and both built baselines on one throwaway database, for tests that send them the
 * same requests: processes and database are released by `cleanUp` (in `afterAll`).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { LoopbackServer, NodeProcess, TestDatabase } from "@petstore/testing"
import { Effect, Exit, Scope } from "effect"

export const benchDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
export const repositoryRoot = resolve(benchDirectory, "../..")

const cleanups = NodeProcess.makeCleanups()
export const cleanUp = cleanups.releaseAll

export const temporaryDirectory = async (prefix: string): Promise<string> => {
  const directory = await mkdtemp(join(tmpdir(), prefix))
  cleanups.register(() => rm(directory, { recursive: true, force: true }))
  return directory
}

/** A fresh database on the test PostgreSQL server, dropped at clean-up; fails when it is unreachable. */
export const freshDatabase = async (): Promise<TestDatabase.TestDatabase["Type"]> => {
  const scope = Effect.runSync(Scope.make())
  cleanups.register(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  return Effect.runPromise(Scope.extend(TestDatabase.make, scope))
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

export type ServerName = "product" | "fastify" | "raw"
export const serverNames: ReadonlyArray<ServerName> = ["product", "fastify", "raw"]

export const scripts: Readonly<Record<ServerName, string>> = {
  product: join(repositoryRoot, "apps/api/dist/main.js"),
  fastify: join(benchDirectory, "dist/baseline/fastify.js"),
  raw: join(benchDirectory, "dist/baseline/raw.js")
}

/**
 * Starts the product first (it migrates the database and registers `key`), then both baselines on
 * the same database. Resolves to each server's base URL.
 */
export const startThreeServers = async (
  databaseUrl: string,
  key: string
): Promise<Readonly<Record<ServerName, string>>> => {
  const dataDirectory = await temporaryDirectory("petstore-bench-test-")
  const urls: Partial<Record<ServerName, string>> = {}
  for (const name of serverNames) {
    const port = await Effect.runPromise(LoopbackServer.freePort)
    const env: Record<string, string> = { DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1" }
    const product = {
      LOG_LEVEL: "Warn",
      PETSTORE_BOOTSTRAP_KEY: key,
      PETSTORE_DATA_DIR: dataDirectory,
      PETSTORE_SECRET_KEY: "bench-test"
    }
    const started = NodeProcess.spawnNode(scripts[name], {
      cwd: repositoryRoot,
      env: name === "product" ? { ...env, ...product } : env
    })
    cleanups.register(started.kill)
    const baseUrl = `http://127.0.0.1:${port}`
    await untilAnswering(started, baseUrl, key, name)
    urls[name] = baseUrl
  }
  const { fastify, product, raw } = urls
  if (fastify === undefined || product === undefined || raw === undefined)
    throw new Error("a server did not start")
  return { product, fastify, raw }
}
