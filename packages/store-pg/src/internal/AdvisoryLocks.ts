/**
 * The advisory locks the PostgreSQL store takes, each held until its transaction ends: one space (the
 * lock's first key) per thing serialised, all listed here so that no two collide, and one way to take
 * one, by the hash of a text key (two keys with one hash are only serialised more than they need).
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/** Each space's first key, four ASCII letters read as an integer. */
export const LockSpace = {
  /** A project's events, so that their ids become visible in order ("evts"). */
  projectEvents: 0x65767473,
  /** An account's project creations, counted against its limit ("prjs"). */
  accountProjects: 0x70726a73,
  /** A project's domain additions, counted against its limit ("dmns"). */
  projectDomains: 0x646d6e73,
  /** An account's new claims, counted against its limits ("clms"). */
  accountClaims: 0x636c6d73,
  /** A project's webhook creations, counted against its limit ("whks"). */
  projectWebhooks: 0x77686b73
} as const

/**
 * `effect` in a transaction that first takes the lock of `key` in `space`: what counts and adds under
 * a limit runs one at a time per key, never two from the same count.
 */
export const inLockedTransaction =
  (sql: SqlClient.SqlClient, space: number, key: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    sql.withTransaction(Effect.andThen(sql`select pg_advisory_xact_lock(${space}, hashtext(${key}))`, effect))
