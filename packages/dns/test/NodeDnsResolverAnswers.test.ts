/**
 * The pure halves of NodeDnsResolver: how Node's error codes become answers, and how the A and AAAA
 * answers combine (including the mixed cases no test server produces on demand).
 */
import { describe, expect, it } from "@effect/vitest"
import type { DnsAnswer } from "@petstore/domains"
import { NodeDnsResolver } from "../src/index.js"

const nodeError = (code: string): Error =>
  Object.assign(new Error(`queryA ${code} docs.example.test`), { code })

const records = (...values: readonly [string, ...Array<string>]): DnsAnswer<string> => ({
  _tag: "Records",
  records: values
})
const nodata: DnsAnswer<string> = { _tag: "NoRecords", reason: "nodata" }
const nxdomain: DnsAnswer<string> = { _tag: "NoRecords", reason: "nxdomain" }
const timeout: DnsAnswer<string> = { _tag: "Failure", reason: "timeout", detail: "ETIMEOUT" }
const servfail: DnsAnswer<string> = { _tag: "Failure", reason: "servfail", detail: "ESERVFAIL" }

describe("NodeDnsResolver.fromNodeError", () => {
  it.each([
    ["ENODATA", nodata],
    ["ENOTFOUND", nxdomain],
    ["ETIMEOUT", timeout],
    ["ESERVFAIL", servfail],
    ["EREFUSED", { _tag: "Failure", reason: "refused", detail: "EREFUSED" }],
    ["ECONNREFUSED", { _tag: "Failure", reason: "refused", detail: "ECONNREFUSED" }],
    ["EBADRESP", { _tag: "Failure", reason: "other", detail: "EBADRESP" }],
    ["ECANCELLED", { _tag: "Failure", reason: "other", detail: "ECANCELLED" }]
  ] satisfies ReadonlyArray<[string, DnsAnswer<string>]>)("%s", (code, answer) => {
    expect(NodeDnsResolver.fromNodeError(nodeError(code))).toStrictEqual(answer)
  })

  it("something without a code is an other failure with its message", () => {
    expect(NodeDnsResolver.fromNodeError(new TypeError("bad name"))).toStrictEqual({
      _tag: "Failure",
      reason: "other",
      detail: "bad name"
    })
    expect(NodeDnsResolver.fromNodeError("odd")).toStrictEqual({
      _tag: "Failure",
      reason: "other",
      detail: "odd"
    })
    expect(NodeDnsResolver.fromNodeError({ code: 42 })).toStrictEqual({
      _tag: "Failure",
      reason: "other",
      detail: '{"code":42}'
    })
  })
})

describe("NodeDnsResolver.combineAddresses", () => {
  it.each([
    [
      "A and AAAA records: both, deduplicated",
      records("192.0.2.1", "192.0.2.1"),
      records("::1"),
      records("192.0.2.1", "::1")
    ],
    ["A records, AAAA NODATA", records("192.0.2.1"), nodata, records("192.0.2.1")],
    ["A NODATA, AAAA records", nodata, records("2001:db8::1"), records("2001:db8::1")],
    ["A records, AAAA timed out: the records", records("192.0.2.1"), timeout, records("192.0.2.1")],
    ["A SERVFAIL, AAAA records: the records", servfail, records("2001:db8::1"), records("2001:db8::1")],
    ["NODATA on both", nodata, nodata, nodata],
    ["NXDOMAIN on both", nxdomain, nxdomain, nxdomain],
    ["NXDOMAIN and NODATA (the zone changed between the questions)", nxdomain, nodata, nodata],
    ["A NODATA, AAAA timed out: the failure (the AAAA may exist)", nodata, timeout, timeout],
    ["A timed out, AAAA NXDOMAIN: the failure", timeout, nxdomain, timeout],
    ["both failed: the A failure", servfail, timeout, servfail]
  ] satisfies ReadonlyArray<[string, DnsAnswer<string>, DnsAnswer<string>, DnsAnswer<string>]>)(
    "%s",
    (_, ipv4, ipv6, combined) => {
      expect(NodeDnsResolver.combineAddresses(ipv4, ipv6)).toStrictEqual(combined)
    }
  )
})
