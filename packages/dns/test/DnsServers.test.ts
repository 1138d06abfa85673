/**
 * A list of DNS servers as an operator writes it: what it accepts (normalised for Node's resolver) and
 * refuses, and the same as a Schema decoding the text.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result, Schema } from "effect"
import { DnsServers } from "../src/index.js"

const accepted = (text: string): ReadonlyArray<string> => Result.getOrThrow(DnsServers.parseServers(text))

const refused = (text: string): string =>
  Result.match(DnsServers.parseServers(text), {
    onFailure: (message) => message,
    onSuccess: (servers) => {
      throw new Error(`expected "${text}" to be refused, got ${JSON.stringify(servers)}`)
    }
  })

describe("DnsServers.parseServers", () => {
  it.each([
    ["127.0.0.1", ["127.0.0.1"]],
    ["127.0.0.1:8053", ["127.0.0.1:8053"]],
    ["::1", ["::1"]],
    ["[::1]", ["::1"]],
    ["[2001:db8::53]:8053", ["[2001:db8::53]:8053"]],
    ["192.0.2.53:65535", ["192.0.2.53:65535"]],
    [" 192.0.2.1 , [2001:db8::1]:53,198.51.100.1:1", ["192.0.2.1", "[2001:db8::1]:53", "198.51.100.1:1"]]
  ])("accepts %j", (text, servers) => {
    expect(accepted(text)).toStrictEqual(servers)
  })

  it.each([
    ["", "no DNS server given"],
    ["   ", "no DNS server given"],
    ["127.0.0.1,", "entry 2: empty server entry"],
    [",127.0.0.1", "entry 1: empty server entry"],
    ["localhost", "not an IP address"],
    ["dns.example:53", "not an IP address"],
    ["127.0.0.1:0", 'port "0" must be a number from 1 to 65535'],
    ["127.0.0.1:65536", 'port "65536"'],
    ["127.0.0.1:99999", 'port "99999"'],
    ["127.0.0.1:", 'port ""'],
    ["127.0.0.1:53x", 'port "53x"'],
    ["127.0.0.1:-1", 'port "-1"'],
    ["256.0.0.1", "not an IP address"],
    ["01.2.3.4", "not an IP address"],
    ["[::1]:0", 'port "0"'],
    ["[127.0.0.1]:53", "not an IPv6 address"],
    ["[::1]53", "not an IPv6 address"],
    ["2001:db8::zz", "not an IPv6 address"],
    ["fe80::1%eth0", "zone ids are not supported"],
    ["[fe80::1%eth0]:53", "zone ids are not supported"]
  ])("refuses %j", (text, problem) => {
    expect(refused(text)).toContain(problem)
  })

  it("names every bad entry", () => {
    expect(refused("127.0.0.1:0,192.0.2.1,localhost")).toBe(
      'invalid DNS servers: entry 1: port "0" must be a number from 1 to 65535; ' +
        'entry 3: "localhost" is not an IP address (the resolver takes no host names)'
    )
  })

  it("parseServer normalises one entry", () => {
    expect(DnsServers.parseServer(" [2001:db8::1] ")).toStrictEqual(Result.succeed("2001:db8::1"))
  })
})

describe("DnsServers.ServerList", () => {
  const decode = Schema.decodeUnknownEffect(DnsServers.ServerList)

  it.effect("decodes the text into the normalised servers", () =>
    Effect.gen(function* () {
      expect(yield* decode(" 127.0.0.1:8053 , [::1]")).toStrictEqual(["127.0.0.1:8053", "::1"])
    })
  )

  it.effect("fails with the message of parseServers, naming every bad entry", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(decode("localhost,127.0.0.1:0"))
      expect(error.message).toContain('entry 1: "localhost" is not an IP address')
      expect(error.message).toContain('entry 2: port "0" must be a number from 1 to 65535')
    })
  )
})
