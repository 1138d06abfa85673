/**
 * The claim use cases (contract section 4), written against the ports only. A claim is its account's
 * alone: another account's claim of the same apex is never found, and creating one's own claim of
 * an apex someone else claims says nothing about theirs.
 */

import type { CustomDomain } from "@petstore/domains"
import {
  CustomDomainRepository,
  customHostname,
  DnsResolver,
  hasLostOwnership,
  hostnameKind,
  InvalidDomainRequest,
  isAnsweredBy,
  loseOwnership
} from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { Limits } from "@petstore/kernel"
import { DateTime, Effect, Option } from "effect"
import { applyClaimCheck, type Claim, lapseClaim, newClaim } from "./Claim.js"
import { ClaimRepository } from "./ClaimRepository.js"
import { type Decision, decideAndStore, noWrites, writtenClaim } from "./DecidedWrites.js"
import type { DecidedWrites } from "./DecidedWritesStore.js"
import { ClaimNotFound } from "./Errors.js"
import { ownershipLostProblem, ownershipProof } from "./Ownership.js"
import { OwnershipRepository } from "./OwnershipRepository.js"

const now = DateTime.nowAsDate

/** An apex from text: a hostname that is a registrable domain itself (`example.com`, `example.co.uk`). */
const normaliseApex = (text: string) =>
  Effect.filterOrFail(
    customHostname(text),
    (hostname) => hostnameKind(hostname) === "apex",
    () => "must be a registrable domain such as example.com, not a name under one"
  )

export interface CreatedClaim {
  readonly claim: Claim
  /** False when the account had claimed this apex already: the existing claim is returned. */
  readonly created: boolean
}

export const createClaim = (account: AccountName, apexText: string) =>
  Effect.gen(function* () {
    const apex = yield* normaliseApex(apexText).pipe(
      Effect.mapError((rule) => new InvalidDomainRequest({ message: `apex: ${rule}` }))
    )
    const claims = yield* ClaimRepository
    const token = yield* Effect.flatMap(OwnershipRepository, (ownership) => ownership.tokenFor(account, apex))
    const claim = newClaim(account, apex, token, yield* now)
    if (yield* claims.insert(claim, yield* Limits)) return { claim, created: true } satisfies CreatedClaim
    const existing = yield* claims.findOwned(account, apex)
    return { claim: Option.getOrElse(existing, () => claim), created: false } satisfies CreatedClaim
  })

export const listClaims = (account: AccountName) =>
  Effect.flatMap(ClaimRepository, (claims) => claims.listByAccount(account))

/** An apex from a path: anything that does not normalise names no claim. */
export const getClaim = (account: AccountName, apexText: string) =>
  Effect.gen(function* () {
    const notFound = new ClaimNotFound({ apex: apexText })
    const apex = yield* normaliseApex(apexText).pipe(Effect.mapError(() => notFound))
    const found = yield* Effect.flatMap(ClaimRepository, (claims) => claims.findOwned(account, apex))
    return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
  })

/** Deleting a claim frees the names under its apex for other accounts again. */
export const deleteClaim = (account: AccountName, apexText: string) =>
  Effect.gen(function* () {
    const claim = yield* getClaim(account, apexText)
    yield* Effect.flatMap(ClaimRepository, (claims) => claims.remove(account, claim.apex))
  })

/** A claim check's outcome: the claim, and what it takes from other accounts when it holds. */
export interface ClaimCheck {
  readonly claim: Claim
  /** Other accounts' proved claims of the same apex, lapsed. */
  readonly rivals: ReadonlyArray<Claim>
  /** Other accounts' domains at or under the apex, failed with `ownership_lost`. */
  readonly losers: ReadonlyArray<CustomDomain>
}

/** Looks the claim's TXT record up and applies the result; a proved claim takes the apex for its account. */
export const checkClaim = (claim: Claim) =>
  Effect.gen(function* () {
    const checkedAt = yield* now
    const answer = yield* Effect.flatMap(DnsResolver, (dns) => dns.txt(claim.txt.name))
    const checked = applyClaimCheck(claim, ownershipProof(answer, claim.txt.value), checkedAt)
    if (checked.status !== "verified") return { claim: checked, rivals: [], losers: [] } satisfies ClaimCheck
    const [claims, domains] = yield* Effect.all(
      [
        Effect.flatMap(ClaimRepository, (repository) => repository.listByApexes([claim.apex])),
        Effect.flatMap(CustomDomainRepository, (repository) => repository.listAtOrUnder(claim.apex))
      ],
      { concurrency: "unbounded" }
    )
    const others = <A extends { readonly account: AccountName }>(values: ReadonlyArray<A>) =>
      values.filter((value) => value.account !== claim.account)
    return {
      claim: checked,
      rivals: others(claims)
        .filter((rival) => rival.status === "verified")
        .map((rival) => lapseClaim(rival, checkedAt)),
      losers: others(domains)
        .filter((domain) => !hasLostOwnership(domain))
        .map((domain) =>
          loseOwnership(domain, ownershipLostProblem(domain.hostname, "claimed", claim.apex), checkedAt)
        )
    } satisfies ClaimCheck
  })

/** What storing a claim check writes: the claim with what it takes, at once (see `storeDecided`). */
export const claimCheckWrites = (check: ClaimCheck): DecidedWrites => ({
  domains: check.losers,
  claims: [...check.rivals, check.claim]
})

/**
 * Verify clicked: look the record up now, and store the outcome conditionally on the claims and
 * domains it was decided from (decided again from what won should another write come first). A
 * lookup made since the click, or within the cool-down of the last one, answers it as that lookup
 * left the claim (see `isAnsweredBy`).
 */
export const verifyClaim = (account: AccountName, apexText: string) =>
  Effect.flatMap(now, (clickedAt) =>
    decideAndStore(
      Effect.gen(function* () {
        const claim = yield* getClaim(account, apexText)
        if (yield* isAnsweredBy(claim.lastCheckedAt, clickedAt)) {
          return { answer: claim, writes: noWrites } satisfies Decision<Claim>
        }
        const check = yield* checkClaim(claim)
        return {
          answer: writtenClaim(check.claim),
          writes: claimCheckWrites(check)
        } satisfies Decision<Claim>
      }),
      getClaim(account, apexText)
    )
  )
