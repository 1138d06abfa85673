/**
 * The private keys behind the CSRs this process finalized, by order URL, until their certificates can
 * no longer be wanted. A key is needed from finalization until the certificate is downloaded, and again
 * if that download is retried (the certificate could not be stored, say), so it is kept for a while
 * after finalization rather than dropped at the first download; an invalid order's key is dropped at
 * once. Keys older than the retention are swept whenever a key is added, so a process that finalizes
 * orders for months holds only the keys of its recent ones.
 */
import type { Redacted } from "effect"

interface Entry {
  readonly key: Redacted.Redacted<string>
  readonly finalizedAt: number
}

export class OrderKeys {
  private readonly entries = new Map<string, Entry>()

  constructor(private readonly retentionMillis: number) {}

  /** Keeps the key of the order finalized at `now`, and forgets keys older than the retention. */
  add(orderUrl: string, key: Redacted.Redacted<string>, now: number): void {
    for (const [url, entry] of this.entries) {
      if (now - entry.finalizedAt >= this.retentionMillis) this.entries.delete(url)
    }
    this.entries.set(orderUrl, { key, finalizedAt: now })
  }

  /** The key of an order this process finalized within the retention, if any. */
  get(orderUrl: string, now: number): Redacted.Redacted<string> | undefined {
    const entry = this.entries.get(orderUrl)
    return entry === undefined || now - entry.finalizedAt >= this.retentionMillis ? undefined : entry.key
  }

  /** Forgets the key of an order that will never need it (invalid). */
  remove(orderUrl: string): void {
    this.entries.delete(orderUrl)
  }

  /** How many keys are kept. */
  get size(): number {
    return this.entries.size
  }
}
