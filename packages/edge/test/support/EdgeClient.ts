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
        agent: false
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
        agent: options.agent ?? false
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

/** A TLS handshake alone, with `servername` as SNI (none when absent), trusting only `ca`. */
export const handshake = (port: number, ca: string, servername?: string) =>
  Effect.callback<Handshake>((resume) => {
    const socket = tlsConnect({
      host: loopback,
      port,
      ca: [ca],
      ...(servername === undefined ? {} : { servername })
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
