/**
 * Traces of the built server, exported to a stand-in OpenTelemetry collector when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set: one span per request, the SQL statements it ran beneath it,
 * flushed when the server stops.
 */
import { type ReceivedSpan, startFakeCollector } from "@petstore/telemetry/testing"
import { afterEach, describe, expect, it } from "vitest"
import { cleanUp, randomKey, send, startServer, temporaryDirectory } from "./support/ApiProcess.js"

afterEach(cleanUp, 60_000)

/** Whether `span` descends from `ancestor` through the parent links the collector received. */
const descendsFrom = (
  span: ReceivedSpan,
  ancestor: ReceivedSpan,
  all: ReadonlyArray<ReceivedSpan>
): boolean => {
  const byId = new Map(all.map((candidate) => [candidate.spanId, candidate]))
  let current: ReceivedSpan | undefined = span
  while (current?.parentSpanId !== undefined) {
    if (current.parentSpanId === ancestor.spanId) return true
    current = byId.get(current.parentSpanId)
  }
  return false
}

describe("OpenTelemetry traces", () => {
  it("one span per request, its SQL beneath it, exported by the built server", async () => {
    const collector = await startFakeCollector()
    try {
      const key = randomKey()
      const server = await startServer({
        PETSTORE_DATA_DIR: await temporaryDirectory(),
        PETSTORE_BOOTSTRAP_KEY: key,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url
      })
      await server.listening()
      const created = await send(server.baseUrl, "/v1/pets", {
        method: "POST",
        key,
        body: { name: "Rex", categoryId: 1 }
      })
      expect(created.status).toBe(201)
      expect((await send(server.baseUrl, "/v1/pets?limit=5", { key })).status).toBe(200)
      expect(await server.terminate()).toEqual({ code: 0, signal: null })

      const spans = collector.spans
      expect(spans.every((span) => span.service === "petstore-api")).toBe(true)
      const requests = spans.filter((span) => span.attributes["url.path"] === "/v1/pets")
      expect(requests.map((span) => span.attributes["http.request.method"]).sort()).toEqual(["GET", "POST"])
      for (const request of requests) {
        expect(request.parentSpanId).toBeUndefined()
        const beneath = spans.filter(
          (span) => span.traceId === request.traceId && descendsFrom(span, request, spans)
        )
        // Effect 4 names a statement's span after its database (OpenTelemetry's database conventions:
        // `db.namespace`, here "postgres"), no longer "sql.execute": a statement is the span of the
        // PostgreSQL client that carries the SQL it ran.
        expect(
          beneath.some(
            (span) =>
              span.attributes["db.system.name"] === "postgresql" &&
              span.name === span.attributes["db.namespace"] &&
              typeof span.attributes["db.query.text"] === "string" &&
              span.attributes["db.query.text"].length > 0
          ),
          `${request.name}: ${beneath.map((span) => span.name).join(", ")}`
        ).toBe(true)
        expect(beneath.some((span) => span.name.startsWith("PetRepository."))).toBe(true)
      }
    } finally {
      await collector.close()
    }
  }, 60_000)
})
