/**
 * The edge's decisions kept in memory, by name, so that a request or handshake for a name already
 * decided makes no storage query. A removal must still stop serving at once, so what is kept is only
 * what nothing has changed since (the same rules as the API key cache of the PostgreSQL store):
 * every change heard drops the names it concerns (a hostname's own entry, or every name decided
 * from a project), and a lookup that was reading storage while anything changed does not keep what
 * it read. While changes made elsewhere cannot be heard, nothing is served from memory or kept;
 * when they can again, everything kept before is dropped.
 *
 * Names decided `none` (unknown, removed, not served) are kept apart, in a space of the same size:
 * a flood of made-up names drops only other made-up names, never a served one. Both are bounded in
 * number (the oldest goes first) and in age, a safety net for a change never heard of.
 */

import type { StoredCertificate } from "@petstore/certificates"
import type { EdgeDecision, ServingChange } from "@petstore/serving"
import type { Option } from "effect"

/** What is known of a name: the decision and the certificate to present for it. */
export interface Known {
  readonly decision: EdgeDecision
  /** Looked up only for a name served or redirected; none otherwise. */
  readonly certificate: Option.Option<StoredCertificate>
  /** The project the decision was taken from, if any: a change to it drops the name. */
  readonly projectId: string | undefined
}

interface Entry {
  readonly known: Known
  readonly expiresAt: number
}

/** What a lookup that reads storage holds: the state it started in. */
export type ReadToken = number

/** The token of a read whose result must not be kept. */
const noKeep: ReadToken = -1

export class EdgeDecisionCache {
  /** Names served or redirected. */
  private readonly answered = new Map<string, Entry>()
  /** Names decided `none`. */
  private readonly refused = new Map<string, Entry>()
  /** Grows with every change and every change of hearing: a read keeps its result only if this did not move. */
  private generation = 0
  private active = false

  constructor(
    /** Names kept of each kind. */
    private readonly capacity: number,
    private readonly timeToLiveMillis: number,
    private readonly now: () => number
  ) {}

  /** Whether names are served from memory and kept (changes are heard). */
  get serving(): boolean {
    return this.active
  }

  /** How many names are kept: answered (served or redirected) and refused. */
  get size(): { readonly answered: number; readonly refused: number } {
    return { answered: this.answered.size, refused: this.refused.size }
  }

  lookup(name: string): Known | undefined {
    if (!this.active) return undefined
    for (const entries of [this.answered, this.refused]) {
      const entry = entries.get(name)
      if (entry === undefined) continue
      if (entry.expiresAt > this.now()) return entry.known
      entries.delete(name)
    }
    return undefined
  }

  /** Taken before reading storage for a name; `keep` then decides with it. */
  beginRead(): ReadToken {
    return this.active ? this.generation : noKeep
  }

  /** Keeps what a read found, unless changes could not be heard or anything changed meanwhile. */
  keep(token: ReadToken, name: string, known: Known): void {
    if (token === noKeep || token !== this.generation || !this.active) return
    this.answered.delete(name)
    this.refused.delete(name)
    const entries = known.decision.action === "none" ? this.refused : this.answered
    if (entries.size >= this.capacity) {
      const oldest = entries.keys().next()
      if (oldest.done !== true) entries.delete(oldest.value)
    }
    entries.set(name, { known, expiresAt: this.now() + this.timeToLiveMillis })
  }

  /** Something that decides serving changed (or may have). */
  changed(change: ServingChange): void {
    this.generation++
    switch (change._tag) {
      case "Hostname":
        this.answered.delete(change.hostname)
        this.refused.delete(change.hostname)
        return
      case "Project":
        for (const entries of [this.answered, this.refused]) {
          for (const [name, entry] of entries) {
            if (entry.known.projectId === change.projectId) entries.delete(name)
          }
        }
        return
      case "Everything":
        this.answered.clear()
        this.refused.clear()
    }
  }

  /** Whether every change is heard from now on; either way, what was kept may be stale. */
  hearing(hearing: boolean): void {
    this.changed({ _tag: "Everything" })
    this.active = hearing
  }
}
