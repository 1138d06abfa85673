/**
 * What the ownership rules read about the hostnames being checked (see `Ownership`): the other
 * accounts' domains with each hostname (its rivals), the recent releases of it, and the claims of its
 * apex, read in one query per store for a whole worker round.
 */

import type { CustomDomain } from "@petstore/domains"
import { CustomDomainRepository, DnsName, Hostname, type HostnameHold, isRivalOf } from "@petstore/domains"
import { Array as Arr, DateTime, Duration, Effect, Option, Predicate } from "effect"
import { ClaimRepository } from "./ClaimRepository.js"
import { type OwnershipFacts, recentHoldWindow } from "./Ownership.js"
import { OwnershipRepository } from "./OwnershipRepository.js"

const now = DateTime.nowAsDate

/** A hold's rivals (other accounts' domains with its hostname) and what the ownership rules read about it. */
export interface HostnameOwnership {
  readonly rivals: ReadonlyArray<CustomDomain>
  readonly facts: OwnershipFacts
}

const apexOf = (hostname: Hostname): Hostname | undefined =>
  Option.getOrUndefined(Option.map(DnsName.registrableDomain(hostname), Hostname.make))

/**
 * What the ownership rules read about each of `holds` (see `Ownership`), in one query per store
 * whatever their number: a worker round reads its checks' facts at once instead of three queries a
 * domain. The answer is for those holds only.
 */
export const ownershipFactsOf = (holds: ReadonlyArray<HostnameHold>) =>
  Effect.gen(function* () {
    const since = new Date((yield* now).getTime() - Duration.toMillis(recentHoldWindow))
    const hostnames = Arr.dedupe(holds.map((hold) => hold.hostname))
    const apexByHostname = new Map(hostnames.map((hostname) => [hostname, apexOf(hostname)]))
    const apexes = Arr.dedupe(Arr.filter([...apexByHostname.values()], Predicate.isNotUndefined))
    const [rivals, releases, claims] =
      holds.length === 0
        ? [[], [], []]
        : yield* Effect.all(
            [
              Effect.flatMap(CustomDomainRepository, (domains) => domains.listRivals(holds)),
              Effect.flatMap(OwnershipRepository, (ownership) => ownership.releasesSince(hostnames, since)),
              apexes.length === 0
                ? Effect.succeed([])
                : Effect.flatMap(ClaimRepository, (repository) => repository.listByApexes(apexes))
            ],
            { concurrency: "unbounded" }
          )
    const domainsOf = Arr.groupBy(rivals, (domain) => domain.hostname)
    const releasesOf = Arr.groupBy(releases, (release) => release.hostname)
    const claimsOf = Arr.groupBy(claims, (claim) => claim.apex)
    return (hold: HostnameHold): HostnameOwnership => {
      const { hostname } = hold
      const rivalsOfHold = (domainsOf[hostname] ?? []).filter(isRivalOf(hold))
      const apex = apexByHostname.get(hostname) ?? apexOf(hostname)
      return {
        rivals: rivalsOfHold,
        facts: {
          holders: rivalsOfHold.map((domain) => domain.account),
          releases: releasesOf[hostname] ?? [],
          claims: apex === undefined ? [] : (claimsOf[apex] ?? [])
        }
      }
    }
  })

/** What the ownership rules read about one hold. */
export const ownershipOf = (hold: HostnameHold) =>
  Effect.map(ownershipFactsOf([hold]), (ownershipFor) => ownershipFor(hold))
