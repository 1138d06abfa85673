/**
 * The worker's job: claim the domains due for a check, check them with bounded concurrency, and store
 * each result only while its lease still holds. A check that fails to run gives its lease back.
 */
import { Clock, Duration, Effect } from "effect"
import { checkDomain } from "./CustomDomains.js"
import { DomainRepository } from "./DomainRepository.js"

export interface DueCheckOptions {
  /** Identifies this worker's leases; unique per process. */
  readonly holder: string
  /** How many domains one round claims. */
  readonly batchSize: number
  readonly concurrency: number
  /** How long a claimed check may take before another worker may take it over. */
  readonly lease: Duration.DurationInput
}

export interface DueCheckRound {
  readonly claimed: number
  readonly completed: number
  /** Results not stored: the lease was lost or the domain removed meanwhile. */
  readonly abandoned: number
}

export const checkDueDomains = (options: DueCheckOptions) =>
  Effect.gen(function* () {
    const domains = yield* DomainRepository
    const now = yield* Clock.currentTimeMillis
    const claimed = yield* domains.claimDue(new Date(now), options.batchSize, {
      holder: options.holder,
      until: new Date(now + Duration.toMillis(options.lease))
    })
    const stored = yield* Effect.forEach(
      claimed,
      (domain) =>
        checkDomain(domain).pipe(
          Effect.flatMap((checked) => domains.completeCheck(checked, options.holder)),
          Effect.onInterrupt(() => domains.releaseLease(domain.hostname, options.holder).pipe(Effect.ignore)),
          Effect.tapError(() => domains.releaseLease(domain.hostname, options.holder).pipe(Effect.ignore))
        ),
      { concurrency: options.concurrency }
    )
    const completed = stored.filter((ok) => ok).length
    return {
      claimed: claimed.length,
      completed,
      abandoned: claimed.length - completed
    } satisfies DueCheckRound
  })
