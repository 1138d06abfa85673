/**
 * A real (UDP, `node:dgram` + `dns-packet`) DNS server for the worker processes under test: it
 * answers for `<n>.<zone>` with a CNAME to the platform target (so every such domain verifies), and
 * with the TXT records it is given (ownership records), after an artificial delay; every other name is
 * NXDOMAIN. It records every query it receives: which listener (one per worker, so the asker is
 * known), the name, the type, when it arrived and when it was answered.
 */
import { createSocket, type Socket } from "node:dgram"
import dnsPacket from "dns-packet"

export interface DnsQuery {
  /** The listener that received it: each worker is given a listener of its own. */
  readonly listener: string
  /** Lower case, no trailing dot. */
  readonly name: string
  readonly type: string
  /** `Date.now()` when the query arrived. */
  readonly start: number
  /** `Date.now()` when the answer was sent; undefined while the query is in flight. */
  end: number | undefined
}

export interface Delay {
  readonly minMs: number
  readonly maxMs: number
}

export interface DnsServer {
  /** The UDP port of a listener, for `PETSTORE_DNS_SERVERS=127.0.0.1:<port>`. */
  readonly port: (listener: string) => number
  /** Every query received so far, in arrival order. */
  readonly queries: () => ReadonlyArray<DnsQuery>
  readonly close: () => Promise<void>
}

export interface DnsServerOptions {
  readonly listeners: ReadonlyArray<string>
  /** Names `<digits>.<zone>` exist, as CNAMEs to `target`. */
  readonly zone: string
  readonly target: string
  readonly delay: Delay
  /** TXT records by name (lower case, no trailing dot): each value one record. */
  readonly txt?: ReadonlyMap<string, ReadonlyArray<string>>
}

const targetIPv4 = "192.0.2.10"
const targetIPv6 = "2001:db8::10"
const NXDOMAIN = 3

const normalise = (name: string) => name.toLowerCase().replace(/\.$/, "")

/**
 * The response to `query`: for `<n>.<zone>` the CNAME (and for A/AAAA the target's address), for a
 * name with TXT records those records (when TXT is asked), or NXDOMAIN.
 */
const respond = (query: dnsPacket.DecodedPacket, options: DnsServerOptions): Buffer => {
  const question = query.questions?.[0]
  const name = question === undefined ? "" : normalise(question.name)
  const txt = options.txt?.get(name)
  const verifies = new RegExp(`^[0-9]+\\.${options.zone.replaceAll(".", "\\.")}$`).test(name)
  const exists = verifies || txt !== undefined
  const answers: Array<dnsPacket.Answer> = []
  if (question !== undefined && question.type === "TXT" && txt !== undefined) {
    for (const value of txt) answers.push({ type: "TXT", name: question.name, ttl: 0, data: value })
  }
  if (question !== undefined && verifies) {
    // TTL 0: c-ares caches answers by default; every check must reach this server.
    const cname: dnsPacket.Answer = { type: "CNAME", name: question.name, ttl: 0, data: options.target }
    if (question.type === "CNAME") answers.push(cname)
    if (question.type === "A")
      answers.push(cname, { type: "A", name: options.target, ttl: 0, data: targetIPv4 })
    if (question.type === "AAAA")
      answers.push(cname, { type: "AAAA", name: options.target, ttl: 0, data: targetIPv6 })
  }
  const flags =
    dnsPacket.AUTHORITATIVE_ANSWER |
    (query.flag_rd ? dnsPacket.RECURSION_DESIRED : 0) |
    (exists ? 0 : NXDOMAIN)
  return dnsPacket.encode({
    type: "response",
    ...(query.id === undefined ? {} : { id: query.id }),
    flags,
    questions: query.questions ?? [],
    answers
  })
}

const bind = (socket: Socket): Promise<number> =>
  new Promise((resolve, reject) => {
    socket.once("error", reject)
    socket.bind(0, "127.0.0.1", () => {
      socket.off("error", reject)
      resolve(socket.address().port)
    })
  })

export const startDnsServer = async (options: DnsServerOptions): Promise<DnsServer> => {
  const log: Array<DnsQuery> = []
  const timers = new Set<NodeJS.Timeout>()
  const ports = new Map<string, number>()
  const sockets: Array<Socket> = []
  let closed = false
  for (const listener of options.listeners) {
    const socket = createSocket("udp4")
    sockets.push(socket)
    socket.on("error", () => undefined)
    socket.on("message", (message, remote) => {
      const start = Date.now()
      let query: dnsPacket.DecodedPacket
      try {
        query = dnsPacket.decode(message)
      } catch {
        return
      }
      const question = query.questions?.[0]
      const entry: DnsQuery = {
        listener,
        name: question === undefined ? "" : normalise(question.name),
        type: question?.type ?? "(none)",
        start,
        end: undefined
      }
      log.push(entry)
      const { maxMs, minMs } = options.delay
      const delay = minMs + Math.random() * (maxMs - minMs)
      const timer = setTimeout(() => {
        timers.delete(timer)
        if (closed) return
        entry.end = Date.now()
        socket.send(respond(query, options), remote.port, remote.address)
      }, delay)
      timers.add(timer)
    })
    ports.set(listener, await bind(socket))
  }
  return {
    port: (listener) => {
      const port = ports.get(listener)
      if (port === undefined) throw new Error(`no DNS listener named ${listener}`)
      return port
    },
    queries: () => log,
    close: async () => {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      await Promise.all(
        sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve())))
      )
    }
  }
}
