/**
 * Runs the built API process (`dist/main.js`) and the key CLI (`dist/cli.js`) as a user would, with
 * helpers to talk to them over raw HTTP and to clean up whatever a test leaves behind.
 */
import { type ChildProcess, execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { LoopbackServer, NodeProcess, TestDatabase } from "@petstore/testing"
import { Effect, Exit, Scope } from "effect"

const appDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const mainScript = join(appDirectory, "dist/main.js")
const cliScript = join(appDirectory, "dist/cli.js")

// ---------------------------------------------------------------------------------------------------
// Cleanup: everything a test starts is registered here and released by `cleanUp` (in `afterEach`).

const cleanups = NodeProcess.makeCleanups()

/** Releases what the tests started, most recent first: processes, then databases, then directories. */
export const cleanUp = cleanups.releaseAll

export const temporaryDirectory = async (): Promise<string> => {
  const directory = await mkdtemp(join(tmpdir(), "petstore-api-process-"))
  cleanups.register(() => rm(directory, { recursive: true, force: true }))
  return directory
}

/** A fresh database on the test PostgreSQL server, dropped at clean-up. Fails when it is unreachable. */
export const freshDatabase = async (): Promise<TestDatabase.TestDatabase["Service"]> => {
  const scope = Effect.runSync(Scope.make())
  const closeScope = () => Effect.runPromise(Scope.close(scope, Exit.void))
  cleanups.register(closeScope)
  return Effect.runPromise(Scope.provide(TestDatabase.make, scope))
}

/**
 * The storages a process runs on, named for a test title, each as the environment that gives it a
 * fresh one: the embedded default (a new data directory) and PostgreSQL (a new database).
 */
export const bothStorages: ReadonlyArray<
  readonly [name: string, environment: () => Promise<Record<string, string>>]
> = [
  ["the embedded default", async () => ({ PETSTORE_DATA_DIR: join(await temporaryDirectory(), "data") })],
  ["PostgreSQL", async () => ({ DATABASE_URL: (await freshDatabase()).url })]
]

/** A port nobody listens on right now. */
export const freePort = (): Promise<number> => Effect.runPromise(LoopbackServer.freePort)

export const randomKey = (): string => `pk_test_${globalThis.crypto.randomUUID().replaceAll("-", "")}`

// ---------------------------------------------------------------------------------------------------
// The server process.

const { childEnvironment, spawnNode, withTimeout } = NodeProcess
export const logLines = NodeProcess.logLines
type Exited = NodeProcess.Exited

export interface ServerProcess {
  readonly child: ChildProcess
  readonly port: number
  readonly baseUrl: string
  readonly stdout: () => string
  readonly stderr: () => string
  readonly output: () => string
  readonly exited: Promise<Exited>
  readonly hasExited: () => boolean
  /** Resolves once stdout says the server listens; rejects when the process exits first or on timeout. */
  readonly listening: (timeoutMs?: number) => Promise<void>
  /** Sends SIGTERM and waits for the exit (rejects after `timeoutMs`). */
  readonly terminate: (timeoutMs?: number) => Promise<Exited>
}

/**
 * Spawns `node dist/main.js` with `env`. Unless `env.PORT` is given, the server listens on a port the
 * system chooses (`PORT=0`) and `port` is read from its "listening" line: a port picked here and
 * passed down could be taken by another process (the edge of a server started in parallel, say)
 * before this server binds it. The process is killed (SIGKILL) at clean-up if it is still running.
 */
export const startServer = async (env: Record<string, string>): Promise<ServerProcess> => {
  let port: number | undefined = env.PORT === undefined ? undefined : Number(env.PORT)
  const server = spawnNode(mainScript, {
    cwd: appDirectory,
    env: { PORT: "0", HOST: "127.0.0.1", ...env }
  })
  cleanups.register(server.kill)
  const listening = (timeoutMs = 60_000) =>
    new Promise<void>((resolvePromise, reject) => {
      const started = Date.now()
      const check = () => {
        const announced = /"petstore listening on http:\/\/[^"]*:(\d+) /.exec(server.stdout())
        if (announced !== null) {
          port = Number(announced[1])
          return resolvePromise()
        }
        if (server.hasExited())
          return reject(
            new Error(
              `the server exited before listening (code ${server.child.exitCode})\n${server.output()}`
            )
          )
        if (Date.now() - started > timeoutMs)
          return reject(new Error(`the server did not listen within ${timeoutMs} ms\n${server.output()}`))
        setTimeout(check, 20)
      }
      check()
    })
  const terminate = async (timeoutMs = 30_000) => {
    if (!server.hasExited()) server.child.kill("SIGTERM")
    return withTimeout(server.exited, timeoutMs, `the server stopping after SIGTERM\n${server.output()}`)
  }
  const knownPort = (): number => {
    if (port === undefined)
      throw new Error("the server's port is known once it listens: await listening() first, or pass PORT")
    return port
  }
  return {
    ...server,
    get port() {
      return knownPort()
    },
    get baseUrl() {
      return `http://127.0.0.1:${knownPort()}`
    },
    listening,
    terminate
  }
}

// ---------------------------------------------------------------------------------------------------
// The key CLI.

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<CliResult> =>
  new Promise((resolvePromise, reject) => {
    const child = execFile(
      process.execPath,
      [cliScript, ...args],
      { cwd: appDirectory, env: childEnvironment(env), timeout: 60_000, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number")
          return reject(new Error(`petstore ${args.join(" ")} did not finish: ${error.message}\n${stderr}`))
        resolvePromise({ code: child.exitCode, stdout, stderr })
      }
    )
  })

// ---------------------------------------------------------------------------------------------------
// HTTP, one connection per request, so that a refused or reset connection is told apart from a
// response cut off midway.

export interface HttpResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
  readonly json: () => unknown
}

export interface RequestOptions {
  readonly method?: string
  readonly key?: string
  readonly headers?: Record<string, string>
  readonly body?: unknown
  /** A body sent exactly as written (malformed JSON, say) instead of `body` serialised. */
  readonly rawBody?: string
  readonly timeoutMs?: number
}

/** A failed exchange: `stage` says whether any byte of a response had arrived. */
export class HttpFailure extends Error {
  constructor(
    readonly stage: "before-response" | "mid-response" | "timeout",
    readonly code: string | undefined,
    message: string
  ) {
    super(message)
  }
}

export const send = (baseUrl: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> =>
  new Promise((resolvePromise, reject) => {
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    const headers: Record<string, string> = {
      connection: "close",
      ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
      ...(body === undefined
        ? {}
        : { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
      ...options.headers
    }
    let responded = false
    let settled = false
    const fail = (error: HttpFailure) => {
      if (settled) return
      settled = true
      reject(error)
    }
    const req = httpRequest(`${baseUrl}${path}`, { method: options.method ?? "GET", headers, agent: false })
    const timer = setTimeout(() => {
      fail(new HttpFailure("timeout", undefined, `${options.method ?? "GET"} ${path}: no answer in time`))
      req.destroy()
    }, options.timeoutMs ?? 15_000)
    req.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      fail(new HttpFailure(responded ? "mid-response" : "before-response", error.code, error.message))
    })
    req.on("response", (response) => {
      responded = true
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => {
        text += chunk
      })
      response.on("aborted", () => {
        clearTimeout(timer)
        fail(new HttpFailure("mid-response", "ECONNRESET", `${path}: the response was cut off`))
      })
      response.on("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        fail(new HttpFailure("mid-response", error.code, error.message))
      })
      response.on("end", () => {
        clearTimeout(timer)
        if (settled) return
        if (!response.complete) {
          fail(new HttpFailure("mid-response", "ECONNRESET", `${path}: the response was incomplete`))
          return
        }
        settled = true
        resolvePromise({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text,
          json: () => JSON.parse(text)
        })
      })
    })
    req.end(body)
  })

export interface Pet {
  readonly id: number
  readonly name: string
  readonly categoryId: number
  readonly status: string
}

/** Every animal, following the `next` links. */
export const listAll = async (baseUrl: string, key: string): Promise<Array<Pet>> => {
  const pets: Array<Pet> = []
  let path: string | undefined = "/v1/pets?limit=100"
  for (let pages = 0; path !== undefined && pages < 1000; pages++) {
    const response = await send(baseUrl, path, { key })
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.text}`)
    pets.push(...(response.json() as Array<Pet>))
    const link = response.headers.link
    path = typeof link === "string" ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined
  }
  return pets
}
