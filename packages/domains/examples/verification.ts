/**
 * The verification rules as pure functions: what DNS answered, turned into a verdict with problems
 * an owner can act on; when a pending domain is checked again; and what a verdict makes of a domain.
 */
import {
  applyVerdict,
  type DnsAnswer,
  deadlineFrom,
  Hostname,
  newCustomDomain,
  nextCheckAt,
  OwnershipToken,
  verdictFromDns
} from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"

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

// A new domain is pending; a Verified verdict verifies it and asks for its certificate; after 48 hours
// without one, an Unverified verdict fails it.
const added = newCustomDomain(
  { account: AccountName.make("acme"), projectId: ProjectId.make("handbook") },
  Hostname.make("docs.example.com"),
  { token: OwnershipToken.make("5f0c2a9e7b3d41c8a6e2f0b9d7c5a3e1"), required: false },
  target,
  addedAt
)
const [verifiedVerdict, unverifiedVerdict] = verdicts
if (verifiedVerdict !== undefined && unverifiedVerdict !== undefined) {
  const verified = applyVerdict(added, verifiedVerdict, new Date("2026-11-26T09:00:30Z"))
  const late = applyVerdict(added, unverifiedVerdict, new Date("2026-11-28T09:00:00Z"))
  console.log(added.status, verified.status, verified.certificate.status, late.status)
  console.log(late.verification.problems.map((problem) => problem.code))
}

// Output:
// Verified
// Unverified [ 'conflicting_record' ]
// Unverified [ 'conflicting_record' ]
// Inconclusive [ 'dns_error' ]
// 2026-11-28T09:00:00.000Z
// 2026-11-26T09:00:30.000Z
// 2026-11-26T09:04:00.000Z
// 2026-11-26T12:15:00.000Z
// pending verified pending failed
// [ 'verification_timed_out', 'conflicting_record' ]
