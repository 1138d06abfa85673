/**
 * Clients for the edge's real sockets: HTTP and HTTPS requests with a chosen Host and SNI name (the
 * edge listens on 127.0.0.1, the names exist only in the requests), a bare TLS handshake, and a raw
 * exchange that shows the bytes on the wire (to see that a HEAD answer has no body).
 */
import { X509Certificate } from "node:crypto"
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http"
import { type Agent, request as httpsRequest } from "node:https"
import { connect as netConnect } from "node:net"
import { TLSSocket, connect as tlsConnect } from "node:tls"
import { Effect } from "effect"

export interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** Whether the request went over a connection kept alive from an earlier one. */
  readonly reusedSocket: boolean
  /** The DER of the certificate the server presented (HTTPS only). */
  readonly peerCertificate: Buffer | undefined
}

export interface RequestOptions {
  readonly host: string
  readonly path?: string
  readonly method?: string
  /** The client's own address (any of 127.0.0.0/8), to be another client. */
  readonly localAddress?: string
}

const loopback = "127.0.0.1"

const collect = (response: IncomingMessage, reusedSocket: boolean) =>
  Effect.callback<Answer, Error>((resume) => {
    const socket = response.socket
    const peerCertificate = socket instanceof TLSSocket ? socket.getPeerCertificate().raw : undefined
    const chunks: Array<Buffer> = []
    response.on("data", (chunk: Buffer) => chunks.push(chunk))
    response.once("error", (error) => resume(Effect.fail(error)))
    // Answered once Node has handed a kept-alive socket back to its agent (after this tick's own
    // callbacks): a request sent right at `end` would otherwise open a new connection, or queue for
    // the busy one without being told it reused it.
    response.once("end", () =>
      setImmediate(() =>
        resume(
          Effect.succeed({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            reusedSocket,
            peerCertificate
          })
        )
      )
    )
  })

export const http = (port: number, options: RequestOptions) =>
  Effect.callback<IncomingMessage, Error>((resume) => {
    const request = httpRequest(
      {
        host: loopback,
        port,
        path: options.path ?? "/",
        method: options.method ?? "GET",
        headers: { host: options.host },
        agent: false,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress })
      },
      (response) => resume(Effect.succeed(response))
    )
    request.once("error", (error) => resume(Effect.fail(error)))
    request.end()
    return Effect.sync(() => request.destroy())
  }).pipe(Effect.flatMap((response) => collect(response, false)))

export interface HttpsOptions extends RequestOptions {
  /** The SNI name; the Host when absent. */
  readonly servername?: string
  /** The only root the client trusts. */
  readonly ca: string
  /** A keep-alive agent, to send several requests on one connection. */
  readonly agent?: Agent
}

export const https = (port: number, options: HttpsOptions) =>
  Effect.callback<{ readonly response: IncomingMessage; readonly reusedSocket: boolean }, Error>((resume) => {
    const request = httpsRequest(
      {
        host: loopback,
        port,
        path: options.path ?? "/",
        method: options.method ?? "GET",
        headers: { host: options.host },
        servername: options.servername ?? options.host,
        ca: [options.ca],
        agent: options.agent ?? false,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress })
      },
      (response) => resume(Effect.succeed({ response, reusedSocket: request.reusedSocket }))
    )
    request.once("error", (error) => resume(Effect.fail(error)))
    request.end()
    return Effect.sync(() => request.destroy())
  }).pipe(Effect.flatMap(({ response, reusedSocket }) => collect(response, reusedSocket)))

export type Handshake =
  | { readonly _tag: "Accepted"; readonly authorized: boolean; readonly peerCertificate: Buffer }
  | { readonly _tag: "Refused"; readonly reason: string }

/**
 * A TLS handshake alone, with `servername` as SNI (none when absent), trusting only `ca`, from
 * `localAddress` when given.
 */
export const handshake = (port: number, ca: string, servername?: string, localAddress?: string) =>
  Effect.callback<Handshake>((resume) => {
    const socket = tlsConnect({
      host: loopback,
      port,
      ca: [ca],
      ...(servername === undefined ? {} : { servername }),
      ...(localAddress === undefined ? {} : { localAddress })
    })
    socket.once("secureConnect", () => {
      const peerCertificate = socket.getPeerCertificate().raw
      socket.destroy()
      resume(Effect.succeed({ _tag: "Accepted", authorized: socket.authorized, peerCertificate }))
    })
    socket.once("error", (error) => {
      socket.destroy()
      resume(Effect.succeed({ _tag: "Refused", reason: error.message }))
    })
    return Effect.sync(() => socket.destroy())
  })

/** Writes `text` on a fresh connection and returns every byte read until the server closes it. */
export const raw = (port: number, text: string, tls?: { readonly servername: string; readonly ca: string }) =>
  Effect.callback<string, Error>((resume) => {
    const socket =
      tls === undefined
        ? netConnect({ host: loopback, port })
        : tlsConnect({ host: loopback, port, servername: tls.servername, ca: [tls.ca] })
    const chunks: Array<Buffer> = []
    socket.once(tls === undefined ? "connect" : "secureConnect", () => socket.write(text))
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.once("error", (error) => resume(Effect.fail(error)))
    socket.once("close", () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
    return Effect.sync(() => socket.destroy())
  })

/** The DER of a PEM certificate, to compare with what a server presented. */
export const derOf = (certificatePem: string): Buffer => new X509Certificate(certificatePem).raw

export type TlsVersion = "TLSv1.2" | "TLSv1.3"

export type Exchange =
  | {
      readonly _tag: "Answered"
      /** The HTTP status of a `GET /` sent on the connection. */
      readonly status: number
      /** Whether the server resumed the session offered (no full handshake). */
      readonly resumed: boolean
      /** The session the server gave, to offer on the next connection. */
      readonly session: Buffer | undefined
    }
  | { readonly _tag: "Refused"; readonly reason: string }

/**
 * A TLS connection of exactly `version` for `servername` (SNI and Host), offering `session` from an
 * earlier connection for resumption, with one `GET /` on it; what the server answered and whether it
 * resumed. The connection is read until the server closes it, so a TLS 1.3 ticket (sent after the
 * handshake) is in `session` too.
 */
export const exchange = (
  port: number,
  options: {
    readonly servername: string
    readonly ca: string
    readonly version: TlsVersion
    readonly session?: Buffer | undefined
  }
) =>
  Effect.callback<Exchange>((resume) => {
    const socket = tlsConnect({
      host: loopback,
      port,
      servername: options.servername,
      ca: [options.ca],
      minVersion: options.version,
      maxVersion: options.version,
      ...(options.session === undefined ? {} : { session: options.session })
    })
    let session: Buffer | undefined
    let resumed = false
    let connected = false
    const chunks: Array<Buffer> = []
    socket.on("session", (ticket: Buffer) => {
      session = ticket
    })
    socket.once("secureConnect", () => {
      connected = true
      resumed = socket.isSessionReused()
      socket.write(`GET / HTTP/1.1\r\nHost: ${options.servername}\r\nConnection: close\r\n\r\n`)
    })
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    let refusal = "closed during the handshake"
    socket.once("error", (error) => {
      refusal = error.message
      socket.destroy()
    })
    socket.once("close", () => {
      if (!connected) return resume(Effect.succeed({ _tag: "Refused", reason: refusal }))
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(Buffer.concat(chunks).toString("latin1"))?.[1] ?? 0)
      resume(Effect.succeed({ _tag: "Answered", status, resumed, session }))
    })
    return Effect.sync(() => socket.destroy())
  })
