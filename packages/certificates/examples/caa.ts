/**
 * CAA (RFC 8659) as a pure rule: the first name with CAA records, climbing from the hostname towards
 * its apex, decides whether the platform's CA may issue; a block is worded for the owner, naming the
 * records found and the one to add.
 */
import { caaCandidates, caaProblem, caaRecordText, decideCaa } from "@petstore/certificates"
import { CaaRecord, type DnsAnswer } from "@petstore/domains"
import { Option } from "effect"

const nothing: DnsAnswer<never> = { _tag: "NoRecords", reason: "nxdomain" }
const records = (...found: [CaaRecord, ...Array<CaaRecord>]): DnsAnswer<CaaRecord> => ({
  _tag: "Records",
  records: found
})
const digicertOnly = new CaaRecord({ critical: false, tag: "issue", value: "digicert.com" })
const letsEncrypt = new CaaRecord({
  critical: false,
  tag: "issue",
  value: "letsencrypt.org; validationmethods=http-01"
})

// The names looked up, from the hostname towards the root (RFC 8659's climb).
console.log(caaCandidates("docs.eu.example.org"))
console.log(caaRecordText(digicertOnly))

// The apex names another CA only.
const blocked = decideCaa(
  [
    { name: "docs.example.org", answer: nothing },
    { name: "example.org", answer: records(digicertOnly) }
  ],
  "letsencrypt.org",
  { wildcard: false }
)
const verdicts = [
  // No records anywhere: any CA may issue.
  decideCaa(
    [
      { name: "docs.example.org", answer: nothing },
      { name: "example.org", answer: nothing }
    ],
    "letsencrypt.org",
    {
      wildcard: false
    }
  ),
  blocked,
  // The hostname's own records decide first: they allow the platform's CA.
  decideCaa(
    [
      { name: "docs.example.org", answer: records(letsEncrypt) },
      { name: "example.org", answer: records(digicertOnly) }
    ],
    "letsencrypt.org",
    { wildcard: false }
  ),
  // A lookup without an answer blocks, as a CA would.
  decideCaa(
    [{ name: "docs.example.org", answer: { _tag: "Failure", reason: "servfail", detail: "SERVFAIL" } }],
    "letsencrypt.org",
    { wildcard: false }
  )
]
console.log(verdicts.map((verdict) => verdict._tag))
console.log(Option.getOrUndefined(caaProblem("docs.example.org", "letsencrypt.org", blocked))?.message)

// Output:
// [ 'docs.eu.example.org', 'eu.example.org', 'example.org', 'org' ]
// 0 issue "digicert.com"
// [ 'Allowed', 'Blocked', 'Allowed', 'LookupFailed' ]
// The CAA records at example.org (0 issue "digicert.com") block letsencrypt.org from issuing a certificate for docs.example.org: issue allows only digicert.com, not letsencrypt.org. To allow it, add the CAA record example.org CAA 0 issue "letsencrypt.org".
