/**
 * Where webhooks may be sent (contract section 5). A webhook makes the platform send requests on an
 * owner's behalf, so it must not become a way into the platform's own network: URLs are `https` only
 * and never name an address of a private network, with the operator's `allowPrivate` lifting both
 * (tests, private deployments). A URL's IP literal is checked here, at creation; a name is checked
 * on the addresses it resolves to, at each delivery (the sender adapter, with `isRefusedAddress`), so
 * that a name changed to point inside after its creation is refused too. Address ranges come from the
 * maintained `ipaddr.js` rather than from hand-written masks.
 *
 * A name must be under a suffix the Public Suffix List lists (contract section 9): a single-label name,
 * `.internal`, `.corp`, `.lan` or `.local` only exist inside some network, the platform's own first of
 * all, so they are refused at creation without asking DNS; the List's implicit `*` rule (any unknown
 * top-level label is a suffix) does not count. `allowPrivate` lifts this too: private deployments name
 * their receivers with private names (`localhost`, `hooks.internal`).
 */

import { DnsName } from "@petstore/domains"
import { Option, Result } from "effect"
import ipaddr from "ipaddr.js"

/** Longer URLs are not addresses of receivers but payloads; the bound keeps them out of storage. */
export const longestWebhookUrl = 2048

/**
 * The kind of network an address belongs to. Only `public` addresses are reachable by deliveries
 * (unless the operator allows private ones); `invalid` is text that is not an address at all.
 */
export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "carrier-grade-nat"
  | "link-local"
  | "unique-local"
  | "site-local"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "invalid"

const ipv4Classes: Record<string, AddressClass> = {
  unicast: "public",
  // Anycast services of the public internet (AMT relays, AS112 sinks).
  amt: "public",
  as112: "public",
  unspecified: "unspecified",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "carrier-grade-nat",
  linkLocal: "link-local",
  multicast: "multicast",
  broadcast: "broadcast"
}

const ipv6Classes: Record<string, AddressClass> = {
  unicast: "public",
  amt: "public",
  as112v6: "public",
  // Teredo's embedded client address is the public side of a NAT.
  teredo: "public",
  unspecified: "unspecified",
  loopback: "loopback",
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
  deprecatedSiteLocal: "site-local",
  multicast: "multicast"
}

const classifyIpv4 = (address: ipaddr.IPv4): AddressClass => ipv4Classes[address.range()] ?? "reserved"

/** The IPv4 address carried in the last 32 bits of an IPv6 one. */
const lastIpv4Of = (parts: ReadonlyArray<number>): ipaddr.IPv4 => {
  const high = parts[6] ?? 0
  const low = parts[7] ?? 0
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])
}

const wellKnownNat64 = ipaddr.IPv6.parseCIDR("64:ff9b::/96")

/**
 * IPv6 addresses that stand for an IPv4 one (mapped, translated, NAT64, 6to4) reach that IPv4 address
 * and are what it is: `::ffff:127.0.0.1` is loopback.
 */
const classifyIpv6 = (address: ipaddr.IPv6): AddressClass => {
  const range = address.range()
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
      return classifyIpv4(lastIpv4Of(address.parts))
    case "rfc6052":
      // The well-known NAT64 prefix carries the address in its last 32 bits; local-use prefixes
      // (RFC 8215) place it by their own length, so which address they reach is not known here.
      return address.match(wellKnownNat64) ? classifyIpv4(lastIpv4Of(address.parts)) : "reserved"
    case "6to4": {
      const high = address.parts[1] ?? 0
      const low = address.parts[2] ?? 0
      return classifyIpv4(new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]))
    }
    default:
      // `::a.b.c.d`, the deprecated IPv4-compatible form, is no public address of anyone's.
      if (range === "unicast" && address.parts.slice(0, 6).every((part) => part === 0)) return "reserved"
      return ipv6Classes[range] ?? "reserved"
  }
}

const parseAddress = Option.liftThrowable((text: string) => ipaddr.parse(text))

/** What network `address` (IPv4 dotted decimal or IPv6, without brackets) belongs to. */
export const classifyAddress = (address: string): AddressClass =>
  Option.match(parseAddress(address), {
    onNone: () => "invalid",
    onSome: (parsed) => (parsed instanceof ipaddr.IPv4 ? classifyIpv4(parsed) : classifyIpv6(parsed))
  })

/** Whether deliveries must not connect to `address` (anything but a public address). */
export const isRefusedAddress = (address: string): boolean => classifyAddress(address) !== "public"

const describedClass: Record<Exclude<AddressClass, "public">, string> = {
  unspecified: "an unspecified address",
  loopback: "a loopback address",
  private: "a private address",
  "carrier-grade-nat": "a carrier-grade NAT address",
  "link-local": "a link-local address",
  "unique-local": "a unique local address",
  "site-local": "a site-local address",
  multicast: "a multicast address",
  broadcast: "a broadcast address",
  reserved: "a reserved address",
  invalid: "an address"
}

/** The IP literal a URL's host is, if it is one: `[::1]` is `::1`; names are none. */
const ipLiteralOf = (hostname: string): Option.Option<string> => {
  if (hostname.startsWith("[") && hostname.endsWith("]")) return Option.some(hostname.slice(1, -1))
  // The URL parser has already turned every IPv4 spelling (`0x7f.1`, `2130706433`) into dotted decimal.
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? Option.some(hostname) : Option.none()
}

const parseUrl = Option.liftThrowable((text: string) => new URL(text))

export interface WebhookUrlOptions {
  /** The operator's `PETSTORE_WEBHOOK_ALLOW_PRIVATE`: `http` and private addresses accepted too. */
  readonly allowPrivate: boolean
}

/** The URL deliveries of a new webhook go to, or the rule it breaks (to be shown after `url: `). */
export const validateWebhookUrl = (text: string, options: WebhookUrlOptions): Result.Result<URL, string> => {
  if (text.length > longestWebhookUrl) return Result.fail(`must be at most ${longestWebhookUrl} characters`)
  const parsed = parseUrl(text)
  if (Option.isNone(parsed)) return Result.fail("must be a URL such as https://example.com/webhooks")
  const url = parsed.value
  const schemes = options.allowPrivate ? ["https:", "http:"] : ["https:"]
  if (!schemes.includes(url.protocol)) {
    return Result.fail(options.allowPrivate ? "must use https or http" : "must use https")
  }
  if (url.hostname === "") return Result.fail("must name a host")
  if (url.username !== "" || url.password !== "")
    return Result.fail("must not contain a user name or password")
  if (options.allowPrivate) return Result.succeed(url)
  const literal = ipLiteralOf(url.hostname)
  if (Option.isNone(literal)) {
    // Every suffix of the List's private section ends in one of its ICANN section.
    return DnsName.isUnderIcannSuffix(url.hostname)
      ? Result.succeed(url)
      : Result.fail(
          "must name a host under a public suffix (such as hooks.example.com) or a public IP address"
        )
  }
  const addressClass = classifyAddress(literal.value)
  return addressClass === "public"
    ? Result.succeed(url)
    : Result.fail(`must not be ${describedClass[addressClass]} (${literal.value})`)
}
