/**
 * One round of the worker's job: claim the custom domains with work due (a verification check,
 * certificate work), do it with bounded concurrency, and store the round's results (one write) only
 * while each lease still holds. Work that fails to run gives its lease back. The ownership facts of the
 * round's checks are read at once, before them (one query per store, not three per domain). How often
 * rounds run is the application's (its loop and its configuration).
 */

import { advanceCertificate } from "@petstore/certificates"
import {
  type CustomDomain,
  CustomDomainRepository,
  type HostnameHold,
  isCheckDue,
  type LeasedWork
} from "@petstore/domains"
import type { DueCheckOptions, DueCheckRound } from "@petstore/kernel"
import {
  checkDomain,
  checkWrites,
  DecidedWritesStore,
  type HostnameOwnership,
  ownershipFactsOf
} from "@petstore/ownership"
import { Array as Arr, Clock, Duration, Effect, Option } from "effect"

/**
 * Work done on a leased domain: its result, and where it stands: to be stored with the round's
 * results, stored already with what it decided for others, or outpaced by another write (not stored).
 */
interface DoneWork {
  readonly result: CustomDomain
  readonly state: "toStore" | "stored" | "outpaced"
}

/**
 * The work due on one domain at `now`: its verification check when that is due (with `ownershipOf`,
 * the ownership facts read for the round), otherwise its certificate. A domain that has just verified
 * gets its order in a job of its own (due at once), so a round of cheap DNS checks that owners are
 * waiting on is never held up by a certificate authority. A check that takes the hostname from other
 * accounts' domains is stored at once with them, all or nothing, each conditional on the state it was
 * decided from (the domain's write ends its lease); should one of them have changed meanwhile, the
 * lease goes back and the next round decides again from what won.
 */
export const workOnCustomDomain = (
  domain: CustomDomain,
  now: number,
  ownershipOf: (hold: HostnameHold) => HostnameOwnership
) =>
  Effect.gen(function* () {
    if (!isCheckDue(domain, now)) {
      return { result: yield* advanceCertificate(domain), state: "toStore" } satisfies DoneWork
    }
    const check = yield* checkDomain(domain, ownershipOf(domain))
    if (check.losers.length === 0) return { result: check.domain, state: "toStore" } satisfies DoneWork
    const stored = yield* Effect.flatMap(DecidedWritesStore, (decided) =>
      decided.storeDecided(checkWrites(check))
    )
    return { result: check.domain, state: stored ? "stored" : "outpaced" } satisfies DoneWork
  })

/** Work done on a leased domain, with the domain as it was claimed. */
interface LeasedDone extends DoneWork {
  readonly claimed: CustomDomain
}

export const checkDueCustomDomains = (options: DueCheckOptions) =>
  Effect.gen(function* () {
    const domains = yield* CustomDomainRepository
    const now = yield* Clock.currentTimeMillis
    const claimed = yield* domains.claimDue(new Date(now), options.batchSize, {
      holder: options.holder,
      until: new Date(now + Duration.toMillis(options.lease))
    })
    const release = (domain: CustomDomain) => domains.releaseLease(domain, options.holder).pipe(Effect.ignore)
    const checks = claimed.filter((domain) => isCheckDue(domain, now))
    // Should they not be read, no check can run: every lease goes back at once.
    const ownershipOf = yield* ownershipFactsOf(checks).pipe(
      Effect.onError(() => Effect.forEach(claimed, release, { discard: true }))
    )
    const storeAlone = (work: LeasedWork) =>
      domains
        .completeChecks([work], options.holder)
        .pipe(
          Effect.catch((error) =>
            Effect.andThen(
              Effect.logWarning(`storing the work on ${work.claimed.hostname} failed`, error),
              Effect.as(release(work.claimed), [])
            )
          )
        )
    const round = Effect.gen(function* () {
      const results = yield* Effect.forEach(
        claimed,
        (domain) =>
          workOnCustomDomain(domain, now, ownershipOf).pipe(
            Effect.map((done): Option.Option<LeasedDone> => Option.some({ claimed: domain, ...done })),
            Effect.withSpan(
              "DomainChecks.job",
              { attributes: { hostname: domain.hostname } },
              { captureStackTrace: false }
            ),
            // One domain's failure (its CA or DNS lookups) gives its lease back and spares the others.
            Effect.catch((error) =>
              Effect.andThen(
                Effect.logWarning(`work on ${domain.hostname} failed`, error),
                Effect.as(release(domain), Option.none<LeasedDone>())
              )
            )
          ),
        { concurrency: options.concurrency }
      )
      const works = Arr.getSomes(results)
      const done = works.filter((work) => work.state === "toStore")
      // A decision outpaced by another write gives its lease back: the next round decides from what won.
      yield* Effect.forEach(
        works.filter((work) => work.state === "outpaced"),
        (work) => release(work.claimed),
        { discard: true }
      )
      // The round's results in one write; when it fails, each is written alone, so that one bad
      // result (or a storage hiccup) gives back only the leases it must.
      const completed = yield* domains
        .completeChecks(done, options.holder)
        .pipe(Effect.catch(() => Effect.map(Effect.forEach(done, storeAlone), Arr.flatten)))
      return [...completed, ...works.filter((work) => work.state === "stored").map((work) => work.claimed)]
    })
    // Stopping mid-round gives back every lease still held (a stored result holds none).
    const stored = yield* round.pipe(
      Effect.onInterrupt(() => Effect.forEach(claimed, release, { discard: true }))
    )
    const completed = stored.length
    return {
      claimed: claimed.length,
      completed,
      abandoned: claimed.length - completed
    } satisfies DueCheckRound
  })
