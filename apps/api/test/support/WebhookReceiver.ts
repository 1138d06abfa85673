/**
 * A webhook receiver on loopback, as a customer would run one: a plain HTTP server that records every
 * request (headers, body, when it arrived) and answers as the test scripts it, a status or no answer at
 * all (a receiver that hangs); and a bare TCP listener that only counts connections, for the deliveries
 * that must never connect. Both close when their scope closes.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createServer as createTcpServer, type Server, type Socket } from "node:net"
import { Duration, Effect, Schedule } from "effect"
import { Webhook } from "standardwebhooks"

export interface ReceivedRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** When its last byte arrived (ms since the epoch). */
  readonly at: number
}

/** How the receiver answers a request: an HTTP status, or never (the request hangs until it is closed). */
type ReceiverAnswer = number | "hang"

/** `n` is the request's index among all the receiver got, from 0. */
export type ReceiverScript = (request: ReceivedRequest, n: number) => ReceiverAnswer

interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  readonly url: string
  readonly port: number
  readonly requests: () => ReadonlyArray<ReceivedRequest>
  /** The requests once `done` holds for them; fails after `within` showing what came. */
  readonly requestsOnce: (
    done: (requests: ReadonlyArray<ReceivedRequest>) => boolean,
    within?: Duration.Input
  ) => Effect.Effect<ReadonlyArray<ReceivedRequest>, Error>
}

const headersOf = (request: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers[name] = value
    else if (Array.isArray(value)) headers[name] = value.join(", ")
  }
  return headers
}

const listening = (server: Server, host: string, port = 0) =>
  Effect.callback<number, Error>((resume) => {
    server.once("error", (error) => resume(Effect.fail(error)))
    server.listen(port, host, () => {
      const address = server.address()
      resume(
        typeof address === "object" && address !== null
          ? Effect.succeed(address.port)
          : Effect.fail(new Error("the receiver has no port"))
      )
    })
  })

/** Closes `server` and every connection it still holds (a hanging request's included). */
const closing = (server: Server, sockets: Set<Socket>) =>
  Effect.callback<void>((resume) => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resume(Effect.void))
  })

/** An HTTP receiver on 127.0.0.1 answering each request as `script` says; 204 unless told otherwise. */
export const startReceiver = (script: ReceiverScript = () => 204) =>
  Effect.gen(function* () {
    const received: Array<ReceivedRequest> = []
    const sockets = new Set<Socket>()
    const server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const got: ReceivedRequest = {
          method: request.method ?? "",
          path: request.url ?? "",
          headers: headersOf(request),
          body: Buffer.concat(chunks).toString("utf8"),
          at: Date.now()
        }
        received.push(got)
        const answer = script(got, received.length - 1)
        if (answer === "hang") return
        response.writeHead(answer, { "content-type": "text/plain" }).end(`answered ${answer}`)
      })
    })
    server.on("connection", (socket: Socket) => {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    })
    const port = yield* Effect.acquireRelease(listening(server, "127.0.0.1"), () => closing(server, sockets))
    const requests = () => [...received]
    const requestsOnce = (
      done: (requests: ReadonlyArray<ReceivedRequest>) => boolean,
      within: Duration.Input = "20 seconds"
    ): Effect.Effect<ReadonlyArray<ReceivedRequest>, Error> =>
      Effect.sync(requests).pipe(
        Effect.filterOrFail(done, () => "not yet" as const),
        Effect.retry(Schedule.spaced("50 millis")),
        Effect.timeoutOrElse({
          duration: within,
          orElse: () =>
            Effect.fail(
              new Error(
                `the receiver did not get what was expected within ${Duration.format(Duration.fromInputUnsafe(within))}; it got:\n${JSON.stringify(requests(), null, 1)}`
              )
            )
        }),
        Effect.mapError((error) => (error instanceof Error ? error : new Error(error)))
      )
    return {
      url: `http://127.0.0.1:${port}/hooks`,
      port,
      requests,
      requestsOnce
    } satisfies WebhookReceiver
  })

/**
 * A TCP listener on 127.0.0.1 and, where the machine has it, ::1, on one port: it answers nothing and
 * counts every connection, so a test can tell that a delivery never connected at all.
 */
export const startConnectionCounter = Effect.gen(function* () {
  let connections = 0
  const count = (socket: Socket) => {
    connections += 1
    socket.destroy()
  }
  const ipv4 = createTcpServer(count)
  const port = yield* Effect.acquireRelease(listening(ipv4, "127.0.0.1"), () => closing(ipv4, new Set()))
  const ipv6 = createTcpServer(count)
  // `localhost` may resolve to ::1 first: a connection there must be counted too.
  yield* Effect.acquireRelease(Effect.option(listening(ipv6, "::1", port)), () =>
    ipv6.listening ? closing(ipv6, new Set()) : Effect.void
  )
  return { port, connections: () => connections }
})

/**
 * The event a request carried, after checking its Standard Webhooks signature with `secret` (the
 * maintained `standardwebhooks` library, as a customer's receiver would); throws when it does not verify.
 */
export const verifiedEvent = (secret: string, request: ReceivedRequest): unknown =>
  new Webhook(secret).verify(request.body, request.headers)
