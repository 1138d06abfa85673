/**
 * The verification rules as a pure function from what DNS said to a verdict with problems
 * (contract section 3, rules 1–6).
 *
 * 1. Subdomain: a CNAME equal to the platform target (case-insensitive, trailing dot ignored) verifies;
 *    the TTL does not matter.
 * 2. A CNAME with another value: `cname_mismatch`, with the value found.
 * 3. No CNAME but A/AAAA records: `conflicting_record` (an A record blocks the CNAME).
 * 4. Apex: a CNAME is `apex_requires_alias`; the apex verifies when its addresses are the target's
 *    (what an ALIAS/ANAME record produces).
 * 5. Nothing found: `record_not_found`.
 * 6. A timeout or SERVFAIL is `dns_error`: inconclusive, never a failure by itself.
 */

import type { DnsAnswer } from "./DnsAnswer.js"
import * as DnsName from "./DnsName.js"
import type { HostnameKind } from "./Hostname.js"
import { Problem } from "./Problem.js"

/** What DNS answered about a hostname, and about the platform target (for an apex). */
export interface DnsObservation {
  readonly cname: DnsAnswer<string>
  /** The hostname's addresses; a subdomain's are read only when it has no CNAME. */
  readonly addresses: DnsAnswer<string>
  /** The target's own addresses; only an apex needs them. */
  readonly targetAddresses: DnsAnswer<string>
}

export type VerificationVerdict =
  /** Verified; `problems` are advice that does not stop it (`wildcard_record`, `ownership_required`). */
  | { readonly _tag: "Verified"; readonly problems: ReadonlyArray<Problem> }
  /** DNS answered, and the answer is not what is required. */
  | { readonly _tag: "Unverified"; readonly problems: ReadonlyArray<Problem> }
  /** DNS did not answer: try again later; a verified domain stays verified. */
  | { readonly _tag: "Inconclusive"; readonly problems: ReadonlyArray<Problem> }

const verified: VerificationVerdict = { _tag: "Verified", problems: [] }
const unverified = (problem: Problem): VerificationVerdict => ({ _tag: "Unverified", problems: [problem] })

const dnsError = (
  what: string,
  answer: { readonly reason: string; readonly detail: string }
): VerificationVerdict => ({
  _tag: "Inconclusive",
  problems: [
    new Problem({
      code: "dns_error",
      message: `The ${what} lookup did not get an answer (${answer.reason}: ${answer.detail}); it will be retried.`
    })
  ]
})

const list = (values: ReadonlyArray<string>) => values.join(", ")

const recordNotFound = (hostname: string, required: string) =>
  unverified(
    new Problem({ code: "record_not_found", message: `No record was found at ${hostname}; ${required}.` })
  )

const verifySubdomain = (
  hostname: string,
  target: string,
  observation: DnsObservation
): VerificationVerdict => {
  const required = `create a CNAME record ${hostname} → ${target}`
  const { addresses, cname } = observation
  switch (cname._tag) {
    case "Failure":
      return dnsError("CNAME", cname)
    case "Records":
      return cname.records.some((value) => DnsName.equals(value, target))
        ? verified
        : unverified(
            new Problem({
              code: "cname_mismatch",
              message: `${hostname} has a CNAME to ${list(cname.records)}; it must point to ${target}.`,
              found: cname.records.map((value) => `CNAME ${value}`)
            })
          )
    case "NoRecords":
      switch (addresses._tag) {
        case "Failure":
          return dnsError("address", addresses)
        case "Records":
          return unverified(
            new Problem({
              code: "conflicting_record",
              message: `${hostname} has address records (${list(addresses.records)}), which block the CNAME: remove them and ${required}.`,
              found: addresses.records.map(addressRecord)
            })
          )
        case "NoRecords":
          return recordNotFound(hostname, required)
      }
  }
}

const addressRecord = (address: string) => (address.includes(":") ? `AAAA ${address}` : `A ${address}`)

const verifyApex = (hostname: string, target: string, observation: DnsObservation): VerificationVerdict => {
  const required = `create an ALIAS (or ANAME) record ${hostname} → ${target}`
  const { addresses, cname, targetAddresses } = observation
  if (cname._tag === "Records") {
    return unverified(
      new Problem({
        code: "apex_requires_alias",
        message: `${hostname} is an apex domain, where a CNAME is not allowed (found one to ${list(cname.records)}); ${required} instead.`,
        found: cname.records.map((value) => `CNAME ${value}`)
      })
    )
  }
  if (cname._tag === "Failure") return dnsError("CNAME", cname)
  switch (addresses._tag) {
    case "Failure":
      return dnsError("address", addresses)
    case "NoRecords":
      return recordNotFound(hostname, required)
    case "Records": {
      if (targetAddresses._tag === "Failure") return dnsError(`${target} address`, targetAddresses)
      if (targetAddresses._tag === "NoRecords") {
        return {
          _tag: "Inconclusive",
          problems: [
            new Problem({
              code: "dns_error",
              message: `The platform target ${target} has no addresses right now; the check will be retried.`
            })
          ]
        }
      }
      const expected = new Set(targetAddresses.records.map((address) => address.toLowerCase()))
      const foreign = addresses.records.filter((address) => !expected.has(address.toLowerCase()))
      return foreign.length === 0
        ? verified
        : unverified(
            new Problem({
              code: "conflicting_record",
              message: `${hostname} resolves to ${list(addresses.records)}, but ${target} resolves to ${list(targetAddresses.records)}: remove the other address records and ${required}.`,
              found: addresses.records.map(addressRecord)
            })
          )
    }
  }
}

export const verdictFromDns = (
  hostname: string,
  kind: HostnameKind,
  target: string,
  observation: DnsObservation
): VerificationVerdict =>
  kind === "apex" ? verifyApex(hostname, target, observation) : verifySubdomain(hostname, target, observation)
