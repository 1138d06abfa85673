/**
 * Webhook receivers on loopback for the sender's tests: real HTTP and HTTPS servers that record every
 * connection and every request (headers and exact body), answer as a test says (a status, a redirect,
 * or never), and close with the test's scope. A self-signed certificate is made by `openssl`, which
 * must be installed (a missing one fails the test, never skips it).
 */
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import { createServer as createNetServer, type Server, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TLSSocket } from "node:tls"
import { LoopbackServer } from "@petstore/testing"
import { Effect, type Scope } from "effect"

export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
  /** The TLS server name the client sent (SNI), for HTTPS; none over HTTP or without SNI. */
  readonly servername: string | undefined
}

/** How the receiver answers a request: a status (with headers), or never. */
export type Answer = { readonly status: number; readonly headers?: Record<string, string> } | "never"

export interface Receiver {
  readonly port: number
  /** TCP connections accepted so far (before any TLS handshake). */
  readonly connections: () => number
  /** Requests received so far, in order, each with its whole body. */
  readonly requests: () => ReadonlyArray<ReceivedRequest>
}

export interface Certificate {
  readonly keyPem: string
  readonly certificatePem: string
}

const sockets = new WeakMap<Server, Set<Socket>>()

const track = (server: Server): (() => number) => {
  let count = 0
  const open = new Set<Socket>()
  sockets.set(server, open)
  server.on("connection", (socket: Socket) => {
    count += 1
    open.add(socket)
    socket.on("close", () => open.delete(socket))
  })
  return () => count
}

const listen = (server: Server): Effect.Effect<number, Error, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<number, Error>((resume) => {
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(
          typeof address === "object" && address !== null
            ? Effect.succeed(address.port)
            : Effect.fail(new Error("the server has no TCP address"))
        )
      })
    }),
    () =>
      Effect.callback<void>((resume) => {
        // Connections the tests leave hanging (a receiver that never answers) must not keep it open.
        for (const socket of sockets.get(server) ?? []) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  )

/**
 * A receiver answering every request with `answer(request)`, over HTTPS with `certificate` when given,
 * else over HTTP.
 */
export const start = (
  answer: (request: ReceivedRequest) => Answer,
  certificate?: Certificate
): Effect.Effect<Receiver, Error, Scope.Scope> =>
  Effect.gen(function* () {
    const requests: Array<ReceivedRequest> = []
    const handle = (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const received: ReceivedRequest = {
          method: request.method ?? "",
          path: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          servername:
            "servername" in request.socket ? (request.socket as TLSSocket).servername || undefined : undefined
        }
        requests.push(received)
        const answered = answer(received)
        if (answered === "never") return
        response.writeHead(answered.status, answered.headers ?? {})
        response.end("answered")
      })
    }
    const server =
      certificate === undefined
        ? createHttpServer(handle)
        : createHttpsServer({ key: certificate.keyPem, cert: certificate.certificatePem }, handle)
    const connections = track(server)
    const port = yield* listen(server)
    return { port, connections, requests: () => requests }
  })

/** A TCP server that accepts connections and never says anything (no TLS handshake, no HTTP answer). */
export const silent: Effect.Effect<Receiver, Error, Scope.Scope> = Effect.gen(function* () {
  const server = createNetServer()
  const connections = track(server)
  const port = yield* listen(server)
  return { port, connections, requests: () => [] }
})

/** A loopback port nothing listens on: it was free a moment ago, and is closed again. */
export const closedPort: Effect.Effect<number, Error> = Effect.scoped(listen(createNetServer()))

const run = (program: string, args: ReadonlyArray<string>): Effect.Effect<void, Error> =>
  Effect.callback<void, Error>((resume) => {
    execFile(program, [...args], (error, _stdout, stderr) =>
      resume(error === null ? Effect.void : Effect.fail(new Error(`${program} failed: ${stderr}`)))
    )
  })

/** A fresh self-signed certificate (ECDSA P-256, one day) whose only name is `dnsName`. */
export const selfSigned = (dnsName: string): Effect.Effect<Certificate, Error> =>
  Effect.gen(function* () {
    const openssl = yield* LoopbackServer.findProgram(
      "openssl",
      "the webhook sender's HTTPS tests need it to make a certificate (apt-get install openssl)"
    )
    return yield* Effect.acquireUseRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "webhooks-cert-"))),
      (directory) =>
        Effect.gen(function* () {
          const keyFile = join(directory, "key.pem")
          const certificateFile = join(directory, "cert.pem")
          yield* run(openssl, [
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "1",
            "-subj",
            `/CN=${dnsName}`,
            "-addext",
            `subjectAltName=DNS:${dnsName}`,
            "-keyout",
            keyFile,
            "-out",
            certificateFile
          ])
          return yield* Effect.promise(async () => ({
            keyPem: await readFile(keyFile, "utf8"),
            certificatePem: await readFile(certificateFile, "utf8")
          }))
        }),
      (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
    )
  }).pipe(Effect.mapError((error) => new Error(error.message)))
