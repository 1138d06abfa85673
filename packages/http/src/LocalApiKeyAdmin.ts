/**
 * A loopback-only listener that serves the `ApiKeyRepository` of this process to the key CLI, for
 * storage only one process may open (the embedded database). It listens on 127.0.0.1 at a free port
 * and accepts a random secret that it writes, with the port, to a file only the owner may read.
 */
import { randomBytes } from "node:crypto"
import { rename, rm, writeFile } from "node:fs/promises"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { ApiKeyRepository, constantTimeEquals } from "@petstore/kernel"
import { Effect, Layer, Schema } from "effect"
import {
  adminEndpointFileName,
  InsertRequest,
  ListResponse,
  RevokeRequest,
  RevokeResponse
} from "./ApiKeyAdminProtocol.js"

const maxBodyBytes = 16 * 1024

const readBody = (request: IncomingMessage) =>
  Effect.callback<string, Error>((resume) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      body += chunk
      if (body.length > maxBodyBytes) {
        request.destroy()
        resume(Effect.fail(new Error("body too large")))
      }
    })
    request.once("end", () => resume(Effect.succeed(body)))
    request.once("error", (error) => resume(Effect.fail(error)))
  })

const send = (response: ServerResponse, status: number, body?: string) => {
  response.writeHead(status, body === undefined ? {} : { "content-type": "application/json" })
  response.end(body)
}

export const layer = (options: { readonly directory: string }) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const keys = yield* ApiKeyRepository
      const runFork = Effect.runForkWith(yield* Effect.context<never>())
      const token = randomBytes(32).toString("base64url")

      const handle = (request: IncomingMessage, response: ServerResponse) =>
        Effect.gen(function* () {
          const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1] ?? ""
          if (!constantTimeEquals(presented, token)) return send(response, 401)
          const route = `${request.method} ${request.url}`
          if (route === "GET /api-keys") {
            return send(response, 200, yield* Schema.encodeEffect(ListResponse)(yield* keys.list))
          }
          if (route === "POST /api-keys") {
            yield* keys.insert(yield* Schema.decodeEffect(InsertRequest)(yield* readBody(request)))
            return send(response, 204)
          }
          if (route === "POST /api-keys/revoke") {
            const { at, id } = yield* Schema.decodeEffect(RevokeRequest)(yield* readBody(request))
            const revoked = yield* keys.revoke(id, at)
            return send(response, 200, yield* Schema.encodeEffect(RevokeResponse)({ revoked }))
          }
          return send(response, 404)
        }).pipe(
          Effect.catchCause((cause) =>
            Effect.andThen(
              Effect.logWarning("key administration request failed", cause),
              Effect.sync(() => send(response, 500))
            )
          )
        )

      const server = createServer((request, response) => {
        runFork(handle(request, response))
      })
      const address = yield* Effect.acquireRelease(
        Effect.callback<AddressInfo, Error>((resume) => {
          server.once("error", (error) => resume(Effect.fail(error)))
          server.listen({ host: "127.0.0.1", port: 0 }, () => {
            resume(Effect.succeed(server.address() as AddressInfo))
          })
        }),
        () =>
          Effect.callback<void>((resume) => {
            server.close(() => resume(Effect.void))
          })
      )
      const file = join(options.directory, adminEndpointFileName)
      yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const temporary = `${file}.${process.pid}.tmp`
          await writeFile(temporary, JSON.stringify({ port: address.port, token }), { mode: 0o600 })
          await rename(temporary, file)
        }),
        () => Effect.promise(() => rm(file, { force: true }))
      )
    })
  )
