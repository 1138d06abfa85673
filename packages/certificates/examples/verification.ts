/**
 * The verification and CAA rules as pure functions: what DNS answered, turned into a verdict with
 * problems an owner can act on; when a pending domain is checked again; and whether CAA records let
 * the platform's CA issue.
 */

import { caaProblem, decideCaa } from "@petstore/certificates"
import { CaaRecord, type DnsAnswer, deadlineFrom, nextCheckAt, verdictFromDns } from "@petstore/domains"
import { Option } from "effect"

const target = "cname.example-sites.net"
const records = <A>(...found: [A, ...Array<A>]): DnsAnswer<A> => ({ _tag: "Records", records: found })
const nothing: DnsAnswer<never> = { _tag: "NoRecords", reason: "nxdomain" }
const timeout: DnsAnswer<never> = { _tag: "Failure", reason: "timeout", detail: "no answer in 5 s" }

const verdicts = [
  verdictFromDns("docs.example.com", "subdomain", target, {
    cname: records("CNAME.Example-Sites.net."),
    addresses: nothing,
    targetAddresses: nothing
  }),
  verdictFromDns("docs.example.com", "subdomain", target, {
    cname: nothing,
    addresses: records("203.0.113.7"),
    targetAddresses: nothing
  }),
  verdictFromDns("example.com", "apex", target, {
    cname: nothing,
    addresses: records("192.0.2.10"),
    targetAddresses: records("198.51.100.1", "198.51.100.2")
  }),
  verdictFromDns("docs.example.com", "subdomain", target, {
    cname: timeout,
    addresses: nothing,
    targetAddresses: nothing
  })
]
for (const verdict of verdicts) {
  console.log(
    verdict._tag,
    verdict._tag === "Verified" ? "" : verdict.problems.map((problem) => problem.code)
  )
}

// Checks of a pending domain: 30 s after it was added, then as long as it has waited, at most 15 min.
const addedAt = new Date("2026-11-26T09:00:00Z")
const deadline = deadlineFrom(addedAt)
console.log(deadline.toISOString())
console.log(nextCheckAt(deadline, new Date("2026-11-26T09:00:00Z")).toISOString())
console.log(nextCheckAt(deadline, new Date("2026-11-26T09:02:00Z")).toISOString())
console.log(nextCheckAt(deadline, new Date("2026-11-26T12:00:00Z")).toISOString())

// CAA (RFC 8659): the first name with records decides, climbing from the hostname.
const caa = decideCaa(
  [
    { name: "docs.example.org", answer: nothing },
    {
      name: "example.org",
      answer: records(new CaaRecord({ critical: false, tag: "issue", value: "digicert.com" }))
    }
  ],
  "letsencrypt.org",
  { wildcard: false }
)
console.log(caa._tag)
console.log(Option.getOrUndefined(caaProblem("docs.example.org", "letsencrypt.org", caa))?.message)

// Output:
// Verified
// Unverified [ 'conflicting_record' ]
// Unverified [ 'conflicting_record' ]
// Inconclusive [ 'dns_error' ]
// 2026-11-28T09:00:00.000Z
// 2026-11-26T09:00:30.000Z
// 2026-11-26T09:04:00.000Z
// 2026-11-26T12:15:00.000Z
// Blocked
// The CAA records at example.org (0 issue "digicert.com") block letsencrypt.org from issuing a certificate for docs.example.org: issue allows only digicert.com, not letsencrypt.org. To allow it, add the CAA record example.org CAA 0 issue "letsencrypt.org".
