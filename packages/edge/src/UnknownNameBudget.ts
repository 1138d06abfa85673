/**
 * How many storage lookups of names that turn out unknown each client address may cause: a token
 * bucket per address (the socket's peer; no proxy header is trusted), holding `limit` lookups and
 * refilling evenly over `window`. A lookup spends a token before storage is asked, so concurrent
 * requests cannot overdraw it, and gets it back when the name is served after all: only unknown
 * names cost. Kept in this process's memory, since what it protects is this process's storage
 * queries. Buckets that have refilled are dropped (at most once a minute), so a client cycling
 * through addresses cannot grow the process without bound.
 */

/** How often buckets that have refilled are dropped. */
const sweepIntervalMillis = 60_000

interface Bucket {
  tokens: number
  at: number
}

export class UnknownNameBudget {
  private readonly buckets = new Map<string, Bucket>()
  private lastSweep: number
  private readonly refillPerMilli: number

  constructor(
    private readonly limit: number,
    windowMillis: number,
    private readonly now: () => number
  ) {
    this.refillPerMilli = limit / windowMillis
    this.lastSweep = now()
  }

  /** Buckets kept (those not full). */
  get size(): number {
    return this.buckets.size
  }

  private tokensAt(bucket: Bucket, now: number): number {
    return Math.min(this.limit, bucket.tokens + (now - bucket.at) * this.refillPerMilli)
  }

  /**
   * Spends one of `client`'s tokens: `undefined` when it had one, else the whole seconds (at least
   * one) until it has.
   */
  spend(client: string): number | undefined {
    const now = this.now()
    this.sweep(now)
    const bucket = this.buckets.get(client)
    const tokens = bucket === undefined ? this.limit : this.tokensAt(bucket, now)
    if (tokens < 1) return Math.max(1, Math.ceil((1 - tokens) / this.refillPerMilli / 1_000))
    this.buckets.set(client, { tokens: tokens - 1, at: now })
    return undefined
  }

  /** Gives a token spent by `client` back (the name it looked up was served). */
  refund(client: string): void {
    const bucket = this.buckets.get(client)
    if (bucket === undefined) return
    const now = this.now()
    const tokens = Math.min(this.limit, this.tokensAt(bucket, now) + 1)
    if (tokens >= this.limit) this.buckets.delete(client)
    else this.buckets.set(client, { tokens, at: now })
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < sweepIntervalMillis) return
    this.lastSweep = now
    for (const [client, bucket] of this.buckets) {
      if (this.tokensAt(bucket, now) >= this.limit) this.buckets.delete(client)
    }
  }
}
