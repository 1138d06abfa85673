/**
 * The check of a custom domain with the ownership rules (contract sections 3 and 4): what DNS says of
 * its record, its TXT proof when the hostname is contested and whether a wildcard reaches the
 * platform, decided into the domain's new state and the other accounts' domains that lose the
 * hostname to it.
 */

import type { CustomDomain, Hostname, Problem, VerificationVerdict } from "@petstore/domains"
import {
  applyVerdict,
  DnsName,
  DnsResolver,
  hasLostOwnership,
  loseOwnership,
  observeDomain,
  PlatformSettings,
  withOwnershipRequired
} from "@petstore/domains"
import { DateTime, Effect, Option, Random } from "effect"
import type { DecidedWrites } from "./DecidedWritesStore.js"
import {
  needsRecord,
  type OwnershipProof,
  type OwnershipRequirement,
  ownershipLostProblem,
  ownershipProof,
  ownershipRequirement,
  wildcardProbeName,
  wildcardProblem
} from "./Ownership.js"
import type { HostnameOwnership } from "./OwnershipFacts.js"
import { verdictWithOwnership } from "./OwnershipVerdict.js"

const now = DateTime.nowAsDate

const labelAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

/**
 * Ten letters and digits from one draw in [0, 1), its base-36 digits one after the other: 36¹⁰ is
 * below 2⁵³, a draw's precision.
 */
const base36Digits = (draw: number): string => {
  let digits = ""
  let rest = draw
  for (let index = 0; index < 10; index++) {
    rest *= labelAlphabet.length
    const digit = Math.floor(rest)
    digits += labelAlphabet[digit]
    rest -= digit
  }
  return digits
}

/** A label nobody names by chance: 20 letters and digits, from two draws (one per check's probe). */
const randomLabel = Effect.map(
  Effect.all([Random.next, Random.next]),
  ([first, second]) => base36Digits(first) + base36Digits(second)
)

/** `wildcard_record` when a random name under the hostname's parent reaches the platform target too. */
const observeWildcard = (hostname: Hostname) =>
  Effect.gen(function* () {
    const probe = wildcardProbeName(hostname, yield* randomLabel)
    const apex = DnsName.registrableDomain(hostname)
    if (probe === undefined || Option.isNone(apex)) return []
    const { cnameTarget } = yield* PlatformSettings
    const answer = yield* Effect.flatMap(DnsResolver, (dns) => dns.cname(probe))
    return answer._tag === "Records" && answer.records.some((value) => DnsName.equals(value, cnameTarget))
      ? [wildcardProblem(hostname, probe, apex.value)]
      : []
  })

/** A check's outcome: the domain, and the other accounts' domains that lost the hostname to it. */
export interface DomainCheck {
  readonly domain: CustomDomain
  readonly losers: ReadonlyArray<CustomDomain>
}

/** What a check asked DNS, under the requirement that decided what to ask. */
export interface CheckObservation {
  readonly requirement: OwnershipRequirement["_tag"]
  readonly verdict: VerificationVerdict
  readonly proof: OwnershipProof | undefined
  readonly wildcard: ReadonlyArray<Problem>
}

/** Asks DNS what the rules read under `requirement`: the record, the TXT proof when required, the wildcard probe. */
const observeCheck = (domain: CustomDomain, requirement: OwnershipRequirement) =>
  Effect.gen(function* () {
    const dns = yield* DnsResolver
    const [verdict, proof, wildcard] = yield* Effect.all(
      [
        observeDomain(domain),
        requirement._tag === "Required"
          ? Effect.map(dns.txt(domain.ownership.name), (answer) =>
              ownershipProof(answer, domain.ownership.value)
            )
          : Effect.succeed(undefined),
        requirement._tag === "ProvedByClaim" ? Effect.succeed([]) : observeWildcard(domain.hostname)
      ],
      { concurrency: "unbounded" }
    )
    return { requirement: requirement._tag, verdict, proof, wildcard } satisfies CheckObservation
  })

/**
 * The outcome of a check at `checkedAt` of `domain` with `ownership`, its hostname's, from what DNS
 * said (pure rules). When the domain proves ownership, the other accounts' domains with its hostname
 * lose it. A domain that lost its name to another account's proof stays lost, while a rival is
 * verified, until it proves ownership itself: clicking Verify without the record must not make the
 * loser a contender again.
 */
const decideCheck = (
  domain: CustomDomain,
  ownership: HostnameOwnership,
  requirement: Exclude<OwnershipRequirement, { readonly _tag: "ClaimedByOther" }>,
  observation: CheckObservation,
  checkedAt: Date
): DomainCheck => {
  const { rivals } = ownership
  const { proof, verdict, wildcard } = observation
  const contested = withOwnershipRequired(domain, needsRecord(requirement))
  const lost = ownershipLostProblem(domain.hostname, "proved")
  const staysLost =
    requirement._tag === "Required" &&
    proof?._tag !== "Found" &&
    domain.verification.problems.some((problem) => problem.code === "ownership_lost") &&
    rivals.some((rival) => rival.status === "verified")
  if (staysLost) return { domain: loseOwnership(contested, lost, checkedAt), losers: [] }
  const outcome = verdictWithOwnership(domain.hostname, domain.status, domain.ownership, verdict, {
    requirement,
    proof,
    wildcard
  })
  const checked = applyVerdict(contested, outcome.verdict, checkedAt)
  const losers =
    outcome.proved && checked.status === "verified"
      ? rivals
          .filter((rival) => !hasLostOwnership(rival))
          .map((rival) => loseOwnership(rival, lost, checkedAt))
      : []
  return { domain: checked, losers }
}

/**
 * Asks DNS about a domain and applies the verdict with the ownership rules to it and `ownership`, its
 * hostname's (see `decideCheck`); when another account's proved claim covers it, it loses itself.
 * `observed`, what an earlier attempt of the same decision asked, is used again when it was asked
 * under the same requirement: a decision taken again after a lost race reads the new state, not DNS
 * again. The observation comes back with the outcome.
 */
export const checkDomain = (
  domain: CustomDomain,
  ownership: HostnameOwnership,
  observed?: CheckObservation
) =>
  Effect.gen(function* () {
    const checkedAt = yield* now
    const requirement = ownershipRequirement(domain.account, ownership.facts, checkedAt)
    if (requirement._tag === "ClaimedByOther") {
      const lost = ownershipLostProblem(domain.hostname, "claimed", requirement.apex)
      return { domain: loseOwnership(domain, lost, checkedAt), losers: [], observation: observed }
    }
    const observation =
      observed !== undefined && observed.requirement === requirement._tag
        ? observed
        : yield* observeCheck(domain, requirement)
    return { ...decideCheck(domain, ownership, requirement, observation, checkedAt), observation }
  })

/** What storing a check writes: the losers and the domain, at once (see `storeDecided`). */
export const checkWrites = (check: DomainCheck): DecidedWrites => ({
  domains: [...check.losers, check.domain],
  claims: []
})
