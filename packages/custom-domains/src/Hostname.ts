/**
 * Hostnames of custom domains: normalised (lower case, IDN to punycode, no trailing dot), validated
 * (LDH labels of 1–63 octets, at most 253 octets, at least two labels, not an address, under a real
 * public suffix, not under the platform's own domains), and classified as apex or subdomain with the
 * Public Suffix List (`example.co.uk` is an apex).
 */
import { Result, Schema } from "effect"
import { parse } from "tldts"

export const Hostname = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(
      /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/u
    )
  ),
  Schema.brand("Hostname"),
  Schema.annotate({ identifier: "Hostname", description: "A normalised hostname (lower case, punycode)." })
)
export type Hostname = typeof Hostname.Type

export const HostnameKind = Schema.Literals(["subdomain", "apex"])
export type HostnameKind = typeof HostnameKind.Type

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** Lower case, IDN to punycode (the WHATWG URL algorithm every runtime has), no trailing dot. */
const toAscii = (input: string): Result.Result<string, string> => {
  const trimmed = input.trim()
  if (trimmed === "" || /[\s/\\:@?#%[\]]/.test(trimmed))
    return Result.fail("must be a hostname such as docs.example.com")
  try {
    const ascii = new URL(`http://${trimmed}`).hostname
    return Result.succeed(ascii.endsWith(".") ? ascii.slice(0, -1) : ascii)
  } catch {
    return Result.fail("must be a hostname such as docs.example.com")
  }
}

export const isUnderDomain = (hostname: string, domain: string): boolean =>
  hostname === domain || hostname.endsWith(`.${domain}`)

/**
 * The registrable domain `name` belongs to by the Public Suffix List (`example.co.uk` for
 * `docs.example.co.uk`), or undefined when it has none (an address, a public suffix itself).
 */
export const registrableDomainOf = (name: string): string | undefined => parse(name).domain ?? undefined

/**
 * The normalised hostname, or the rule it breaks. `reservedDomains` are the platform's own (see
 * `PlatformSettings.reservedDomainsOf`): a custom domain may be none of them nor under any.
 */
export const normaliseHostname = (
  input: string,
  reservedDomains: ReadonlyArray<string>
): Result.Result<Hostname, string> =>
  Result.flatMap(toAscii(input), (hostname) => {
    const labels = hostname.split(".")
    if (hostname.length > 253) return Result.fail("must be at most 253 characters")
    if (labels.length < 2) return Result.fail("must have at least two labels, such as example.com")
    if (labels.some((part) => part.length === 0 || part.length > 63)) {
      return Result.fail("must have labels of 1 to 63 characters")
    }
    if (!labels.every((part) => label.test(part))) {
      return Result.fail("must have labels of letters, digits and inner hyphens only")
    }
    const parsed = parse(hostname)
    if (parsed.isIp === true || /^[0-9]+$/.test(labels[labels.length - 1] ?? "")) {
      return Result.fail("must be a name, not an address")
    }
    if (parsed.domain === null || parsed.isIcann !== true)
      return Result.fail("must be under a public suffix such as .com")
    const reserved = reservedDomains.find((domain) => isUnderDomain(hostname, domain))
    if (reserved !== undefined) return Result.fail(`must not be under ${reserved}`)
    return Result.succeed(Hostname.make(hostname))
  })

/** An apex is a registrable domain itself (`example.com`, `example.co.uk`); anything below is a subdomain. */
export const hostnameKind = (hostname: Hostname): HostnameKind =>
  parse(hostname).domain === hostname ? "apex" : "subdomain"

/** DNS names compare case-insensitively, and a trailing dot (the root) changes nothing. */
export const sameDnsName = (a: string, b: string): boolean =>
  a.toLowerCase().replace(/\.$/, "") === b.toLowerCase().replace(/\.$/, "")
