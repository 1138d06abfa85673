/**
 * The Fastify baseline's request log, as a Fastify service in production keeps one: Fastify's own
 * logger (pino, JSON lines on stdout), with its two default lines per request ("incoming request",
 * "request completed") replaced by one line per answered request carrying what the product's
 * `request` line carries: `requestId`, `method`, `path`, `status`, `durationMs`. Without it the
 * baseline would be measured doing less than the product, which logs every request at `Info`.
 */
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify"

/** The path of a raw request target, without its query, as the product logs it. */
const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/** The line of one answered request; `request.log` is its pino child, bound to `requestId` already. */
export const writeRequestLine = (request: FastifyRequest, reply: FastifyReply): void =>
  request.log.info(
    {
      method: request.method,
      path: pathOf(request.url),
      status: reply.statusCode,
      durationMs: reply.elapsedTime
    },
    "request"
  )

/**
 * Fastify's hooks into its own request logging (5.12's `logController`), reduced to one line when a
 * request is answered. Fastify does not report the completion of a request its router refused
 * (`frameworkErrors`): that handler writes the line itself.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    _error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply
  ): void {
    writeRequestLine(request, reply)
  }
}

/** What `env.BENCH_FASTIFY_LOG` selects: `pino` (the reference) or `off` (no logger at all). */
export type RequestLogMode = "pino" | "off"

export const requestLogMode = (value: string | undefined): RequestLogMode =>
  value === "pino" ? "pino" : "off"

/** The Fastify options of each mode: pino at `info` to stdout (its default destination), or none. */
export const loggerOptions = (
  mode: RequestLogMode
): Pick<FastifyServerOptions, "logger" | "logController"> =>
  mode === "pino"
    ? { logger: { level: "info" }, logController: new OneLinePerRequest({ requestIdLogLabel: "requestId" }) }
    : { logger: false }
