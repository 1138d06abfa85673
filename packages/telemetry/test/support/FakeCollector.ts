/**
 * A stand-in OpenTelemetry collector for tests: an HTTP server on a loopback port that keeps every
 * span POSTed to `/v1/traces` (OTLP JSON, what the OTLP/HTTP exporter sends).
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface ReceivedSpan {
  readonly name: string
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly service: string | undefined
  readonly attributes: Readonly<Record<string, string | number | boolean | undefined>>
}

export interface FakeCollector {
  /** `http://127.0.0.1:<port>`: what `OTEL_EXPORTER_OTLP_ENDPOINT` is set to. */
  readonly url: string
  readonly spans: ReadonlyArray<ReceivedSpan>
  readonly close: () => Promise<void>
}

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly boolValue?: boolean
}
interface OtlpAttribute {
  readonly key: string
  readonly value: OtlpValue
}
interface OtlpPayload {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<OtlpAttribute> }
    readonly scopeSpans: ReadonlyArray<{
      readonly spans: ReadonlyArray<{
        readonly name: string
        readonly traceId: string
        readonly spanId: string
        readonly parentSpanId?: string
        readonly attributes?: ReadonlyArray<OtlpAttribute>
      }>
    }>
  }>
}

const attributeValue = (value: OtlpValue) =>
  value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue))

export const startFakeCollector = (): Promise<FakeCollector> =>
  new Promise((resolve) => {
    const spans: Array<ReceivedSpan> = []
    const server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString()
      })
      request.on("end", () => {
        if (request.url === "/v1/traces") {
          const payload = JSON.parse(body) as OtlpPayload
          for (const resourceSpan of payload.resourceSpans) {
            const service = resourceSpan.resource.attributes.find((a) => a.key === "service.name")?.value
            for (const scope of resourceSpan.scopeSpans)
              for (const span of scope.spans)
                spans.push({
                  name: span.name,
                  traceId: span.traceId,
                  spanId: span.spanId,
                  parentSpanId: span.parentSpanId === "" ? undefined : span.parentSpanId,
                  service: service?.stringValue,
                  attributes: Object.fromEntries(
                    (span.attributes ?? []).map((a) => [a.key, attributeValue(a.value)])
                  )
                })
          }
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        spans,
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })
