/**
 * One round of the worker's job: claim the custom domains with work due (a verification check,
 * certificate work), do it with bounded concurrency, and store the round's results (one write) only
 * while each lease still holds. Work that fails to run gives its lease back. The ownership facts of the
 * round's checks are read at once, before them (one query per store, not three per domain). How often
 * rounds run is the application's (its loop and its configuration).
 */
import { Array as Arr, Clock, Duration, Effect, Option } from "effect"
import { advanceCertificate } from "./CertificateIssuance.js"
import { type CustomDomain, isCheckDue } from "./CustomDomain.js"
import { CustomDomainRepository, type HostnameHold, type LeasedWork } from "./CustomDomainRepository.js"
import { checkDomain, type HostnameOwnership, ownershipFactsOf, storeLosers } from "./CustomDomains.js"

/**
 * The work due on one domain at `now`: its verification check when that is due (with `ownershipOf`,
 * the ownership facts read for the round), otherwise its certificate. A domain that has just verified
 * gets its order in a job of its own (due at once), so a round of cheap DNS checks that owners are
 * waiting on is never held up by a certificate authority. The domains a check takes the hostname
 * from are stored at once (see `checkDomain`).
 */
export const workOnCustomDomain = (
  domain: CustomDomain,
  now: number,
  ownershipOf: (hold: HostnameHold) => HostnameOwnership
) =>
  Effect.gen(function* () {
    if (!isCheckDue(domain, now)) return yield* advanceCertificate(domain)
    const check = yield* checkDomain(domain, ownershipOf(domain))
    yield* storeLosers(check)
    return check.domain
  })

export interface DueCheckOptions {
  /** Identifies this worker's leases; unique per process. */
  readonly holder: string
  /** How many domains one round claims. */
  readonly batchSize: number
  readonly concurrency: number
  /** How long a claimed check may take before another worker may take it over. */
  readonly lease: Duration.Input
}

export interface DueCheckRound {
  readonly claimed: number
  readonly completed: number
  /** Results not stored: the lease was lost or the domain removed meanwhile. */
  readonly abandoned: number
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
            Effect.map((result): Option.Option<LeasedWork> => Option.some({ claimed: domain, result })),
            Effect.withSpan(
              "DomainChecks.job",
              { attributes: { hostname: domain.hostname } },
              { captureStackTrace: false }
            ),
            // One domain's failure (its CA or DNS lookups) gives its lease back and spares the others.
            Effect.catch((error) =>
              Effect.andThen(
                Effect.logWarning(`work on ${domain.hostname} failed`, error),
                Effect.as(release(domain), Option.none<LeasedWork>())
              )
            )
          ),
        { concurrency: options.concurrency }
      )
      const done = Arr.getSomes(results)
      // The round's results in one write; when it fails, each is written alone, so that one bad
      // result (or a storage hiccup) gives back only the leases it must.
      return yield* domains
        .completeChecks(done, options.holder)
        .pipe(Effect.catch(() => Effect.map(Effect.forEach(done, storeAlone), Arr.flatten)))
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
