/**
 * What Node's HTTP parser refuses before any handler runs still gets the service's error body, sent
 * over a raw socket exactly as a broken client would send it.
 */
import { request } from "node:http"
import { connect } from "node:net"
import { expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Effect } from "effect"
import { TestServer, TestServerLive } from "./support/TestServer.js"

/** Writes `raw` to the server and reads until it closes the connection. */
const exchange = (baseUrl: string, raw: string) =>
  Effect.promise(
    () =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(baseUrl)
        const socket = connect(Number(port), hostname)
        let answer = ""
        socket.setEncoding("utf8")
        socket.on("data", (chunk: string) => {
          answer += chunk
        })
        socket.on("end", () => resolve(answer))
        socket.on("error", reject)
        socket.write(raw)
      })
  )

const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))

const requestIdOf = (answer: string): string | undefined => /\r\nx-request-id: ([^\r]*)\r\n/.exec(answer)?.[1]

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

layer(TestServerLive(MemoryStore.layer), { excludeTestServices: true })(
  "requests the parser refuses",
  (it) => {
    it.effect("headers over 16 KiB: 400 invalid_request, then the connection closes", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const answer = yield* exchange(
          server.baseUrl,
          `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`
        )
        expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request")
        expect(answer).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/)
        expect(requestIdOf(answer)).toMatch(uuid)
        expect(bodyOf(answer)).toEqual({
          code: "invalid_request",
          message: "the request line and headers are larger than 16 KiB",
          status: 400
        })
      })
    )

    it.effect("a request that is not HTTP: 400 invalid_request", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const answer = yield* exchange(server.baseUrl, "HELLO THERE\r\n\r\n")
        expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request")
        // A fresh id per answer, and the answer counted like any other request.
        const again = yield* exchange(server.baseUrl, "HELLO THERE\r\n\r\n")
        expect(requestIdOf(answer)).toMatch(uuid)
        expect(requestIdOf(again)).toMatch(uuid)
        expect(requestIdOf(again)).not.toBe(requestIdOf(answer))
        const metrics = yield* server.metrics
        const refused = /petstore_http_requests_total\{route="unmatched",method="",status="400"\} (\d+)/.exec(
          metrics
        )
        expect(Number(refused?.[1])).toBeGreaterThanOrEqual(2)
        expect(bodyOf(answer)).toEqual({
          code: "invalid_request",
          message: "the request is not well-formed HTTP/1.1",
          status: 400
        })
      })
    )

    it.effect("an Expect other than 100-continue: 417 expectation_failed in the error body, then close", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const body = '{"name":"Expected","categoryId":1}'
        const answer = yield* exchange(
          server.baseUrl,
          "POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
            `Content-Length: ${body.length}\r\nX-Request-Id: expect-1\r\nExpect: 200-ok\r\n\r\n${body}`
        )
        expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 417 Expectation Failed")
        expect(answer).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i)
        expect(answer).toMatch(/\r\nconnection: close\r\n/i)
        expect(/\r\nx-request-id: ([^\r]*)\r\n/i.exec(answer)?.[1]).toBe("expect-1")
        expect(bodyOf(answer)).toEqual({
          code: "expectation_failed",
          message: "Expect: only 100-continue is supported",
          status: 417
        })
        // Refused before anything else: the animal was not created, and the answer was counted.
        const list = yield* server.request("/v1/pets?limit=100")
        const names = ((yield* Effect.promise(() => list.json())) as ReadonlyArray<{ name: string }>).map(
          (pet) => pet.name
        )
        expect(names).not.toContain("Expected")
        const scraped = yield* server.metrics
        expect(scraped).toMatch(
          /petstore_http_requests_total\{route="\/v1\/pets",method="POST",status="417"\} 1/
        )
      })
    )

    it.effect("Expect: 100-continue still gets its 100 and the request goes through", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const { hostname, port } = new URL(server.baseUrl)
        const key = server.key
        const status = yield* Effect.promise(
          () =>
            new Promise<number>((resolve, reject) => {
              const body = '{"name":"Continued","categoryId":1}'
              const req = request({
                host: hostname,
                port: Number(port),
                method: "POST",
                path: "/v1/pets",
                headers: {
                  authorization: `Bearer ${key}`,
                  "content-type": "application/json",
                  "content-length": body.length,
                  expect: "100-continue"
                }
              })
              req.on("continue", () => req.end(body))
              req.on("response", (response) => {
                response.resume()
                resolve(response.statusCode ?? 0)
              })
              req.on("error", reject)
            })
        )
        expect(status).toBe(201)
      })
    )

    it.effect("a path that reads as a host (`//…`): 404 in the service's body, not a 500", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const response = yield* server.request("//%F1%92%91%9A/x", { method: "DELETE" })
        expect(response.status).toBe(404)
        expect(yield* Effect.promise(() => response.json())).toEqual({
          code: "not_found",
          message: "no resource at //%F1%92%91%9A/x",
          status: 404
        })
      })
    )
  }
)
