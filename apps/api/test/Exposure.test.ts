/**
 * What the built API process (`node dist/main.js`) shows, and to whom: its metrics only on a listener
 * of their own (`PETSTORE_METRICS_PORT`, bound to 127.0.0.1 unless `PETSTORE_METRICS_HOST` says
 * otherwise), never on the public port; its interactive reference with every script served by the
 * process itself (the bundle finds the installed UI), under a Content-Security-Policy.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer, type Server } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { cleanUp, freePort, randomKey, send, startServer } from "./support/ApiProcess.js"

const testTimeout = 60_000

afterEach(cleanUp, 60_000)

/** The process on memory storage, its edge on any free ports (these tests are not about it). */
const start = async (env: Record<string, string>) => {
  const server = await startServer({
    PETSTORE_STORAGE: "memory",
    PETSTORE_EDGE_HTTP_PORT: "0",
    PETSTORE_EDGE_HTTPS_PORT: "0",
    ...env
  })
  await server.listening()
  return server
}

/** A scrape's answer, or the code of the connection's failure (`ECONNREFUSED`). */
const scrape = (host: string, port: number) =>
  send(`http://${host}:${port}`, "/metrics").then(
    (response) => response,
    (error: { readonly code?: string }) => error.code ?? String(error)
  )

const listenOn = async (host: string): Promise<{ readonly port: number; readonly server: Server }> => {
  const server = createServer()
  const port = await new Promise<number>((resolve) =>
    server.listen(0, host, () => {
      const address = server.address()
      resolve(typeof address === "object" && address !== null ? address.port : 0)
    })
  )
  return { port, server }
}

describe("the API process's metrics", () => {
  it(
    "are served on PETSTORE_METRICS_PORT, on 127.0.0.1 only, and not on the public port",
    async () => {
      const key = randomKey()
      const metricsPort = await freePort()
      const server = await start({ PETSTORE_METRICS_PORT: String(metricsPort), PETSTORE_BOOTSTRAP_KEY: key })
      expect(server.stdout()).toContain(`"petstore metrics on http://127.0.0.1:${metricsPort}/metrics"`)

      // The public port: an unknown route like any other, with or without a key.
      for (const withKey of [{}, { key }]) {
        const publicAnswer = await send(server.baseUrl, "/metrics", withKey)
        expect(publicAnswer.status).toBe(404)
        expect(publicAnswer.headers["content-type"]).toBe("application/json; charset=utf-8")
        expect(publicAnswer.json()).toEqual({
          code: "not_found",
          message: "no resource at /metrics",
          status: 404
        })
      }

      const scraped = await scrape("127.0.0.1", metricsPort)
      if (typeof scraped === "string") throw new Error(`the scrape failed: ${scraped}`)
      expect(scraped.status).toBe(200)
      expect(scraped.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8")
      expect(scraped.text).toContain(
        'petstore_http_requests_total{route="unmatched",method="GET",status="404"} 2'
      )
      expect(scraped.text).toContain("petstore_worker_queue_depth 0")
      // Another address of this machine reaches nothing: the listener is bound to 127.0.0.1.
      expect(await scrape("127.0.0.2", metricsPort)).toBe("ECONNREFUSED")

      expect(await server.terminate()).toEqual({ code: 0, signal: null })
      expect(await scrape("127.0.0.1", metricsPort)).toBe("ECONNREFUSED")
    },
    testTimeout
  )

  it(
    "are served on the address PETSTORE_METRICS_HOST names",
    async () => {
      const metricsPort = await freePort()
      const server = await start({
        PETSTORE_METRICS_PORT: String(metricsPort),
        PETSTORE_METRICS_HOST: "0.0.0.0"
      })
      expect(server.stdout()).toContain(`"petstore metrics on http://0.0.0.0:${metricsPort}/metrics"`)
      const scraped = await scrape("127.0.0.2", metricsPort)
      expect(typeof scraped === "string" ? scraped : scraped.status).toBe(200)
    },
    testTimeout
  )

  it(
    "are served nowhere without PETSTORE_METRICS_PORT",
    async () => {
      const server = await start({})
      expect(server.stdout()).not.toContain("petstore metrics on")
      expect((await send(server.baseUrl, "/metrics")).status).toBe(404)
    },
    testTimeout
  )

  it(
    "a metrics port in use stops the process before the public port opens, naming the address",
    async () => {
      const taken = await listenOn("127.0.0.1")
      try {
        const server = await startServer({
          PETSTORE_STORAGE: "memory",
          PETSTORE_EDGE_HTTP_PORT: "0",
          PETSTORE_EDGE_HTTPS_PORT: "0",
          PETSTORE_METRICS_PORT: String(taken.port)
        })
        const exit = await server.exited
        expect(exit, server.output()).toEqual({ code: 1, signal: null })
        expect(server.stdout()).toContain(
          `petstore stopped: the metrics listener cannot listen on 127.0.0.1:${taken.port}: the port is already in use`
        )
        expect(server.stdout()).not.toContain("petstore listening")
      } finally {
        await new Promise<void>((resolve) => taken.server.close(() => resolve()))
      }
    },
    testTimeout
  )

  it(
    "a metrics port out of range stops the process, naming the variable",
    async () => {
      const server = await startServer({ PETSTORE_STORAGE: "memory", PETSTORE_METRICS_PORT: "70000" })
      const exit = await server.exited
      expect(exit.code, server.output()).toBe(1)
      expect(server.stdout()).toMatch(/configuration: PETSTORE_METRICS_PORT: must be a port from 0 to 65535/)
    },
    testTimeout
  )
})

describe("the API process's reference at /docs", () => {
  it(
    "is served by the process itself, scripts included, under its Content-Security-Policy",
    async () => {
      const server = await start({})
      const docs = await send(server.baseUrl, "/docs")
      expect(docs.status).toBe(200)
      const policy = docs.headers["content-security-policy"]
      expect(policy).toContain("default-src 'none'")
      expect(policy).toContain("script-src 'self';")
      expect(docs.text).not.toMatch(/https?:|jsdelivr/)
      const scripts = [...docs.text.matchAll(/<script src="([^"]+)"><\/script>/g)].map(
        ([, path]) => path ?? ""
      )
      expect(scripts).toEqual(["/docs/scalar-api-reference-1.43.5.js", "/docs/start.js"])

      const installed = readFileSync(
        createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js"),
        "utf8"
      )
      for (const path of scripts) {
        const script = await send(server.baseUrl, path)
        expect(script.status, path).toBe(200)
        expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8")
        expect(script.headers["content-security-policy"]).toBe(policy)
        if (path.includes("scalar-api-reference")) expect(script.text === installed).toBe(true)
      }
    },
    testTimeout
  )
})
