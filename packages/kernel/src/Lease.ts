/**
 * How workers share due work: a worker leases what is due (a domain's check, a claim's recheck, a
 * webhook's delivery) for a while, does it, and stores the result only while its lease still holds;
 * a dead worker's leases expire, and another takes the work over. A round is one lease of a batch.
 */
import type { Duration } from "effect"

export interface Lease {
  /** Who holds it: a worker's id, unique per process. */
  readonly holder: string
  readonly until: Date
}

export interface DueCheckOptions {
  /** Identifies this worker's leases; unique per process. */
  readonly holder: string
  /** How many items one round leases. */
  readonly batchSize: number
  readonly concurrency: number
  /** How long leased work may take before another worker may take it over. */
  readonly lease: Duration.Input
}

export interface DueCheckRound {
  readonly claimed: number
  readonly completed: number
  /** Results not stored: the lease was lost or the item removed meanwhile. */
  readonly abandoned: number
}
