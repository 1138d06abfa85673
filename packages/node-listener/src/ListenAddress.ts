/**
 * Where a listener listens: a TCP port on one address (port 0 asks the system for a free port), or a
 * Unix socket's path.
 */
import { Schema } from "effect"

/** A port to listen on, as configuration gives it: 0 asks the system for any free port (the tests' choice). */
export const ListenPort = Schema.Int.check(
  Schema.isBetween({ minimum: 0, maximum: 65_535 }, { message: "must be a port from 0 to 65535" })
)

export interface TcpAddress {
  readonly host: string
  readonly port: number
}

export interface SocketPath {
  readonly path: string
}

export type ListenAddress = TcpAddress | SocketPath

/** What a listener asked to listen on is bound to: the same kind of address, with the chosen port. */
export type BoundAddress<A extends ListenAddress> = A extends SocketPath ? SocketPath : TcpAddress

/** The address as messages show it: `host:port`, or the socket's path. */
export const describeAddress = (address: ListenAddress): string =>
  "path" in address ? address.path : `${address.host}:${address.port}`
