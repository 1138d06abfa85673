/**
 * API keys found by hash, kept in memory so that a request with a known key makes no query for it.
 *
 * What may be served is only what nothing has changed since: every change heard of (a notification,
 * or a change this process made) drops its key, and a lookup that was reading the database while
 * something changed does not keep what it read (it may be the row from before the change). The
 * cache can be `suspended`: while the changes of other processes cannot be heard, it serves nothing
 * and keeps nothing, and it is emptied when they can be heard again (what was missed in between is
 * unknown). Unknown hashes are never kept, so a key created elsewhere is found at once. Entries are
 * bounded in number (the oldest goes first) and in age, a safety net for a change never heard of.
 */
import type { ApiKeyHash, ApiKeyRecord } from "@petstore/kernel"
import type { Option } from "effect"

interface Entry {
  readonly found: Option.Some<ApiKeyRecord>
  readonly expiresAt: number
}

/** What a lookup that reads the database holds: the state it started in. */
export type ReadToken = number

/** The token of a read whose result must not be kept. */
const noKeep: ReadToken = -1

export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>()
  /**
   * Grows with every change and every suspension or resumption: a read keeps its row only if this
   * did not move while it ran.
   */
  private generation = 0
  private active: boolean

  constructor(
    private readonly capacity: number,
    private readonly timeToLiveMillis: number,
    private readonly now: () => number,
    active: boolean
  ) {
    this.active = active
  }

  /** Whether lookups are served and kept (not suspended). */
  get serving(): boolean {
    return this.active
  }

  get size(): number {
    return this.entries.size
  }

  /** The key kept for `hash`, if there is one and it is young enough. */
  lookup(hash: ApiKeyHash): Option.Some<ApiKeyRecord> | undefined {
    if (!this.active) return undefined
    const entry = this.entries.get(hash)
    if (entry === undefined) return undefined
    if (entry.expiresAt > this.now()) return entry.found
    this.entries.delete(hash)
    return undefined
  }

  /** Taken before reading the database for a lookup; `keep` then decides with it. */
  beginRead(): ReadToken {
    return this.active ? this.generation : noKeep
  }

  /**
   * Keeps the key a read found, unless the cache was suspended or something changed meanwhile. A
   * hash not found is not kept: the key may be created any moment, by anyone.
   */
  keep(token: ReadToken, hash: ApiKeyHash, found: Option.Option<ApiKeyRecord>): void {
    if (found._tag === "None" || token === noKeep || token !== this.generation || !this.active) return
    this.entries.delete(hash)
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next()
      if (oldest.done !== true) this.entries.delete(oldest.value)
    }
    this.entries.set(hash, { found, expiresAt: this.now() + this.timeToLiveMillis })
  }

  /** The key with this hash changed (or may have). */
  changed(hash: string): void {
    this.generation++
    this.entries.delete(hash)
  }

  /** Anything may have changed. */
  changedAll(): void {
    this.generation++
    this.entries.clear()
  }

  /** Changes made elsewhere can no longer be heard: serve and keep nothing until `resume`. */
  suspend(): void {
    this.active = false
    this.changedAll()
  }

  /** Changes made elsewhere are heard again: start afresh, as some may have been missed. */
  resume(): void {
    this.changedAll()
    this.active = true
  }
}
