/**
 * CAA (RFC 8659): may the configured CA issue a certificate for a hostname? Contract section 3,
 * "Certificates".
 *
 * 1. Climb from the hostname (for a wildcard `*.X`, from `X`) towards the root, not including it.
 * 2. The first name with a non-empty CAA record set decides; parents are not merged.
 * 3. A critical record with a tag this policy does not know blocks issuance.
 * 4. The relevant property is `issue`; for a wildcard, `issuewild` when the set has one, else `issue`.
 *    A set without the relevant property does not restrict.
 * 5. Otherwise the CA may issue iff some relevant record's issuer domain (the value up to the first
 *    `;`, trimmed, case-insensitive) is the CA's identifier; an empty issuer (`;`) forbids every CA.
 * 6. A lookup that gets no answer (SERVFAIL, timeout) blocks issuance, as a CA would, and is reported
 *    as such.
 *
 * The lookup follows CNAMEs (the resolver's job), so records at a CNAME target count.
 */

import type { CaaRecord, DnsAnswer } from "@petstore/domains"
import { DnsName, DnsResolver, Problem } from "@petstore/domains"
import { Effect, Option } from "effect"

export type CaaVerdict =
  /** `decidedAt`: the name whose record set decided; none when there is no CAA record anywhere. */
  | { readonly _tag: "Allowed"; readonly decidedAt: Option.Option<string> }
  | {
      readonly _tag: "Blocked"
      readonly decidedAt: string
      readonly records: ReadonlyArray<CaaRecord>
      readonly reason: string
    }
  /** No answer at `name`: a CA refuses to issue until it gets one. */
  | { readonly _tag: "LookupFailed"; readonly name: string; readonly reason: string }

export interface CaaLookup {
  readonly name: string
  readonly answer: DnsAnswer<CaaRecord>
}

export interface CaaOptions {
  /** Whether the certificate is for a wildcard name (`issuewild` applies then). */
  readonly wildcard: boolean
}

/** Tags whose meaning is understood: a critical record with any other tag blocks issuance. */
export const knownCaaTags: ReadonlySet<string> = new Set([
  "issue",
  "issuewild",
  "iodef",
  "contactemail",
  "contactphone"
])

/** The names to ask, in order: the hostname (without a leading `*.`), then each parent but the root. */
export const caaCandidates = (hostname: string): ReadonlyArray<string> =>
  DnsName.towardsRoot(DnsName.normalise(hostname).replace(/^\*\./, ""))

const tagOf = (record: CaaRecord) => record.tag.toLowerCase()

/** The issuer domain of an `issue`/`issuewild` value: up to the first `;`, trimmed, lower case. */
export const caaIssuer = (value: string): string => DnsName.normalise(value.split(";", 1)[0] ?? "")

/** `0 issue "letsencrypt.org"`, `128 tbs "x"`: a record as it appears in a zone file. */
export const caaRecordText = (record: CaaRecord): string =>
  `${record.critical ? 128 : 0} ${record.tag} "${record.value.replace(/["\\]/g, (ch) => `\\${ch}`)}"`

/** The property that governs issuance for this record set: `issuewild` for a wildcard when present. */
const relevantTag = (records: ReadonlyArray<CaaRecord>, wildcard: boolean) =>
  wildcard && records.some((record) => tagOf(record) === "issuewild") ? "issuewild" : "issue"

const decideSet = (
  name: string,
  records: ReadonlyArray<CaaRecord>,
  caIdentifier: string,
  options: CaaOptions
): CaaVerdict => {
  const blocked = (reason: string): CaaVerdict => ({ _tag: "Blocked", decidedAt: name, records, reason })
  const unknownCritical = records.filter((record) => record.critical && !knownCaaTags.has(tagOf(record)))
  if (unknownCritical.length > 0) {
    const tags = unknownCritical.map((record) => `"${record.tag}"`).join(", ")
    const properties = unknownCritical.length === 1 ? "property" : "properties"
    return blocked(
      `the critical ${properties} ${tags} ${unknownCritical.length === 1 ? "is" : "are"} not understood, so no CA may issue`
    )
  }
  const tag = relevantTag(records, options.wildcard)
  const relevant = records.filter((record) => tagOf(record) === tag)
  if (relevant.length === 0) return { _tag: "Allowed", decidedAt: Option.some(name) }
  const ca = caaIssuer(caIdentifier)
  const issuers = relevant.map((record) => caaIssuer(record.value))
  if (ca !== "" && issuers.includes(ca)) return { _tag: "Allowed", decidedAt: Option.some(name) }
  const named = issuers.filter((issuer) => issuer !== "")
  return blocked(
    named.length === 0
      ? `${tag} ";" forbids every CA`
      : `${tag} allows only ${[...new Set(named)].join(", ")}, not ${ca}`
  )
}

/**
 * The verdict for the CAA lookups of one hostname, in climbing order (see {@link caaCandidates}):
 * the first failure or the first non-empty record set decides; what follows is never looked at.
 */
export const decideCaa = (
  lookups: ReadonlyArray<CaaLookup>,
  caIdentifier: string,
  options: CaaOptions
): CaaVerdict => {
  for (const { answer, name } of lookups) {
    switch (answer._tag) {
      case "Failure":
        return { _tag: "LookupFailed", name, reason: `${answer.reason}: ${answer.detail}` }
      case "Records":
        return decideSet(name, answer.records, caIdentifier, options)
      case "NoRecords":
        break
    }
  }
  return { _tag: "Allowed", decidedAt: Option.none() }
}

/**
 * Asks DNS for the CAA records of each candidate name in turn, stopping at the first that decides,
 * and applies {@link decideCaa}. A wildcard (`*.example.com`) is treated as such unless told otherwise.
 */
export const checkCaa = (
  hostname: string,
  caIdentifier: string,
  options: CaaOptions = { wildcard: hostname.trim().startsWith("*.") }
): Effect.Effect<CaaVerdict, never, DnsResolver> =>
  Effect.gen(function* () {
    const dns = yield* DnsResolver
    const lookups: Array<CaaLookup> = []
    for (const name of caaCandidates(hostname)) {
      const answer = yield* dns.caa(name)
      lookups.push({ name, answer })
      if (answer._tag !== "NoRecords") break
    }
    return decideCaa(lookups, caIdentifier, options)
  })

/** The `caa_blocks_issuer` problem of a verdict that stops `caIdentifier` from issuing; none when allowed. */
export const caaProblem = (
  hostname: string,
  caIdentifier: string,
  verdict: CaaVerdict
): Option.Option<Problem> => {
  switch (verdict._tag) {
    case "Allowed":
      return Option.none()
    case "LookupFailed":
      return Option.some(
        new Problem({
          code: "caa_blocks_issuer",
          message: `The CAA lookup at ${verdict.name} failed (${verdict.reason}); a CA refuses to issue a certificate for ${hostname} until it answers, so the name servers of ${verdict.name} must answer CAA queries (with records or with none).`
        })
      )
    case "Blocked": {
      const found = verdict.records.map(caaRecordText)
      const critical = verdict.records.filter((record) => record.critical && !knownCaaTags.has(tagOf(record)))
      const tag = relevantTag(verdict.records, hostname.trim().startsWith("*."))
      const required =
        critical.length > 0
          ? `remove ${critical.map(caaRecordText).join(", ")} or clear its critical flag`
          : `add the CAA record ${verdict.decidedAt} CAA 0 ${tag} "${caaIssuer(caIdentifier)}"`
      return Option.some(
        new Problem({
          code: "caa_blocks_issuer",
          message: `The CAA records at ${verdict.decidedAt} (${found.join(", ")}) block ${caIdentifier} from issuing a certificate for ${hostname}: ${verdict.reason}. To allow it, ${required}.`,
          found
        })
      )
    }
  }
}
