/**
 * Hostnames of custom domains: DNS names (`DnsName`: normalised, LDH labels of 1–63 octets, at most
 * 253 octets) with rules of their own (at least two labels, not an address, under a real public
 * suffix, not at or under the platform's own names), classified as apex or subdomain with the Public
 * Suffix List (`example.co.uk` is an apex).
 */
import { Option, Result, Schema } from "effect"
import * as DnsName from "./DnsName.js"

const twoLabelRule: DnsName.Rule = {
  holds: (name) => DnsName.labelsOf(name).length >= 2,
  message: "must have at least two labels, such as example.com"
}

export const Hostname = DnsName.DnsName.pipe(
  // The whole syntax as one pattern, which is what the JSON Schema shows (`DnsName`'s checks show none).
  Schema.check(Schema.isPattern(DnsName.namePattern({ minLabels: 2 }), { message: twoLabelRule.message })),
  Schema.brand("Hostname"),
  Schema.annotate({ identifier: "Hostname", description: "A normalised hostname (lower case, punycode)." })
)
export type Hostname = typeof Hostname.Type

export const HostnameKind = Schema.Literals(["subdomain", "apex"])
export type HostnameKind = typeof HostnameKind.Type

/** The rules of a hostname's syntax, in the order a refusal names the first one broken. */
const syntaxRules = [DnsName.lengthRule, twoLabelRule, DnsName.labelLengthRule, DnsName.ldhRule]

/**
 * An address rather than a name: the last label is all digits. WHATWG URL reads such a name as IPv4
 * (and has already made `0x7f.1` into `127.0.0.1`), and no top-level domain is numeric.
 */
const isAddress = (name: string): boolean => /^[0-9]+$/.test(DnsName.labelsOf(name).at(-1) ?? "")

/**
 * The normalised hostname, or the rule it breaks. `reservedNames` are the platform's own (see
 * `PlatformSettings.reservedNamesOf`): a custom domain may be none of them nor under any.
 */
export const normaliseHostname = (
  input: string,
  reservedNames: ReadonlyArray<string>
): Result.Result<Hostname, string> =>
  Option.match(DnsName.toAscii(input), {
    onNone: () => Result.fail("must be a hostname such as docs.example.com"),
    onSome: (name) => {
      const broken = DnsName.brokenRule(name, syntaxRules)
      if (Option.isSome(broken)) return Result.fail(broken.value.message)
      if (isAddress(name)) return Result.fail("must be a name, not an address")
      if (!DnsName.isUnderIcannSuffix(name)) return Result.fail("must be under a public suffix such as .com")
      const reserved = reservedNames.find((zone) => DnsName.isAtOrUnder(name, zone))
      if (reserved !== undefined) return Result.fail(`must not be under ${reserved}`)
      return Result.succeed(Hostname.make(name))
    }
  })

/** An apex is a registrable domain itself (`example.com`, `example.co.uk`); anything below is a subdomain. */
export const hostnameKind = (hostname: Hostname): HostnameKind =>
  Option.contains(DnsName.registrableDomain(hostname), hostname) ? "apex" : "subdomain"
