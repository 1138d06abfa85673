/**
 * Why a listener could not open, in words an operator can act on: which listener, the address, the
 * reason (a port in use, a privileged port, an address not of this machine) and, when the caller
 * names them, the settings that chose the address.
 */
import { Schema } from "effect"
import type { ListenAddress } from "./ListenAddress.js"
import { describeAddress } from "./ListenAddress.js"

export class ListenError extends Schema.TaggedError<ListenError>()("ListenError", {
  /** What listens, as the message names it: `the ${listener} listener`. */
  listener: Schema.String,
  address: Schema.String,
  reason: Schema.String,
  /** The settings that chose the address (`PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST`). */
  settings: Schema.optional(Schema.String)
}) {
  override get message(): string {
    const settings = this.settings === undefined ? "" : ` (${this.settings})`
    return `the ${this.listener} listener cannot listen on ${this.address}: ${this.reason}${settings}`
  }
}

/** What went wrong, from the error Node's `listen` reports; its own message when the code is not known. */
export const reasonOf = (error: Error, address: ListenAddress): string => {
  const code = "code" in error ? error.code : undefined
  const socket = "path" in address
  switch (code) {
    case "EADDRINUSE":
      return socket ? "the socket is already in use" : "the port is already in use"
    case "EACCES":
      return socket ? "permission denied" : "permission denied (ports below 1024 need privileges)"
    case "EADDRNOTAVAIL":
      return "the address is not one of this machine's"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "no such host"
    default:
      return error.message
  }
}

export const listenErrorOf = (
  error: Error,
  options: {
    readonly listener: string
    readonly address: ListenAddress
    readonly settings?: string | undefined
  }
): ListenError =>
  new ListenError({
    listener: options.listener,
    address: describeAddress(options.address),
    reason: reasonOf(error, options.address),
    settings: options.settings
  })
