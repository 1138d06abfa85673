/**
 * What DNS says of a domain, as the verification rules read it: its CNAME (or, at an apex, its
 * addresses beside the target's), asked through the `DnsResolver` port and judged by `verdictFromDns`.
 */
import { Effect } from "effect"
import type { CustomDomain } from "./CustomDomain.js"
import type { DnsAnswer } from "./DnsAnswer.js"
import { DnsResolver } from "./DnsResolver.js"
import { PlatformSettings } from "./PlatformSettings.js"
import { verdictFromDns } from "./VerificationVerdict.js"

/** What stands for an answer the rules do not read: a question not asked. */
const notAsked: DnsAnswer<string> = { _tag: "NoRecords", reason: "nodata" }

/**
 * Asks DNS about a domain what the verification rules read: the verdict on what the resolver answered.
 * An apex's CNAME and addresses and the target's are asked at once; a subdomain's addresses matter only
 * when it has no CNAME (they would block one), so they are asked then only: two questions (A and AAAA)
 * fewer for every subdomain that has its record, or a CNAME elsewhere.
 */
export const observeDomain = (domain: CustomDomain) =>
  Effect.gen(function* () {
    const dns = yield* DnsResolver
    const { cnameTarget } = yield* PlatformSettings
    if (domain.kind === "apex") {
      const [cname, addresses, targetAddresses] = yield* Effect.all(
        [dns.cname(domain.hostname), dns.addresses(domain.hostname), dns.addresses(cnameTarget)],
        { concurrency: "unbounded" }
      )
      return verdictFromDns(domain.hostname, domain.kind, cnameTarget, { cname, addresses, targetAddresses })
    }
    const cname = yield* dns.cname(domain.hostname)
    const addresses = cname._tag === "NoRecords" ? yield* dns.addresses(domain.hostname) : notAsked
    return verdictFromDns(domain.hostname, domain.kind, cnameTarget, {
      cname,
      addresses,
      targetAddresses: notAsked
    })
  })
