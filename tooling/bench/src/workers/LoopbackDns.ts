/**
 * A DNS server on loopback (UDP, `dns-packet`) for the worker benchmark: every `<n>.<zone>` is a
 * CNAME to the platform target (so every seeded domain verifies at its first check), answered at
 * once with TTL 0, so that what is measured is the workers, not the network or a resolver's cache.
 */
import { createSocket } from "node:dgram"
import dnsPacket from "dns-packet"

export interface LoopbackDns {
  readonly port: number
  /** Queries answered so far. */
  readonly answered: () => number
  readonly close: () => Promise<void>
}

const NXDOMAIN = 3

export const startLoopbackDns = async (zone: string, target: string): Promise<LoopbackDns> => {
  const inZone = new RegExp(`^[0-9]+\\.${zone.replaceAll(".", "\\.")}\\.?$`, "i")
  const socket = createSocket("udp4")
  let answered = 0
  socket.on("error", () => undefined)
  socket.on("message", (message, remote) => {
    let query: dnsPacket.DecodedPacket
    try {
      query = dnsPacket.decode(message)
    } catch {
      return
    }
    const question = query.questions?.[0]
    const exists = question !== undefined && inZone.test(question.name)
    const answers: Array<dnsPacket.Answer> = []
    if (question !== undefined && exists) {
      const cname: dnsPacket.Answer = { type: "CNAME", name: question.name, ttl: 0, data: target }
      if (question.type === "CNAME") answers.push(cname)
      if (question.type === "A") answers.push(cname, { type: "A", name: target, ttl: 0, data: "192.0.2.10" })
      if (question.type === "AAAA")
        answers.push(cname, { type: "AAAA", name: target, ttl: 0, data: "2001:db8::10" })
    }
    const flags =
      dnsPacket.AUTHORITATIVE_ANSWER |
      (query.flag_rd ? dnsPacket.RECURSION_DESIRED : 0) |
      (exists ? 0 : NXDOMAIN)
    answered++
    socket.send(
      dnsPacket.encode({
        type: "response",
        ...(query.id === undefined ? {} : { id: query.id }),
        flags,
        questions: query.questions ?? [],
        answers
      }),
      remote.port,
      remote.address
    )
  })
  const port = await new Promise<number>((resolve, reject) => {
    socket.once("error", reject)
    socket.bind(0, "127.0.0.1", () => {
      socket.off("error", reject)
      resolve(socket.address().port)
    })
  })
  return {
    port,
    answered: () => answered,
    close: () => new Promise((resolve) => socket.close(() => resolve()))
  }
}
