/**
 * Leases on rows, one implementation for the domain checks, the claim rechecks and the webhook
 * deliveries (and their webhooks' lanes): how a worker takes due rows for itself, stores its results
 * only while it still holds them, and gives them back. A lease is two columns of the leased row, its
 * holder and its expiry; a row is free when it has no expiry or the expiry has passed.
 *
 * Claiming is one statement: select the due, free rows in the order asked, `limit`ed,
 * `for update skip locked`, and lease them in the same update, so concurrent claimers (other workers,
 * other processes) skip each other's rows and never lease one row twice. Every write of a leased row
 * ends its lease (`ended`); a worker's result is stored only where it still holds the lease
 * (`heldBy`), and giving a lease back is conditional on the holder too.
 *
 * The table, its key and its lease columns are constants of this package (`LeasedTable`), written
 * into the statements as quoted identifiers; every value (holder, expiry, time, limit, key) is a bound
 * parameter.
 */
import { Schema } from "effect"
import type { Statement } from "effect/sql"
import { rowLimit } from "./Paging.js"

/** A lease as the ports hand it over: who holds it, and until when. */
export const Lease = Schema.Struct({ holder: Schema.String, until: Schema.Date })
export type Lease = typeof Lease.Type

/** The columns most leased tables keep a lease in. */
export const leaseColumns = { holder: "lease_holder", until: "lease_until" } as const

/** What a claim of due rows asks for: as of when, how many at most, and the lease they get. */
export const ClaimDueRequest = Schema.Struct({ now: Schema.Date, limit: Schema.Int, lease: Lease })
export type ClaimDueRequest = typeof ClaimDueRequest.Type

/** A port's claim as its statement's request: the limit a whole number of rows, none below one. */
export const claimDueRequest = (now: Date, limit: number, lease: Lease): ClaimDueRequest => ({
  now,
  limit: rowLimit(limit),
  lease
})

/** Where a table keeps its rows' leases: constants of this package, never input. */
export interface LeasedTable<Key extends string> {
  readonly table: string
  /** The columns that name one row. */
  readonly key: ReadonlyArray<Key>
  readonly holder: string
  readonly until: string
}

/** Which rows a claim takes, and what it returns of them. */
export interface DueRows {
  /** What makes a row due, besides being free (on the table's own columns). */
  readonly due: Statement.Fragment
  /** The order rows are claimed in, oldest due first. */
  readonly order: Statement.Fragment
  /** What the update returns of each row it leased. */
  readonly returning: Statement.Fragment
}

/** The statements and fragments of `leased`'s leases, on `sql`. */
export const leasesOf = <Key extends string>(sql: Statement.Constructor, leased: LeasedTable<Key>) => {
  const table = sql(leased.table)
  const holder = sql(leased.holder)
  const until = sql(leased.until)
  const key = sql.csv(leased.key.map((column) => sql`${sql(column)}`))
  /** A lease column of the row named `alias` (the table itself when none). */
  const of = (alias: string | undefined, column: string) =>
    alias === undefined ? sql(column) : sql(`${alias}.${column}`)

  /** The row's lease is free at `now`: none, or expired. */
  const isFree = (now: Date, alias?: string) =>
    sql`(${of(alias, leased.until)} is null or ${of(alias, leased.until)} <= ${now})`

  /** The `set` list that gives the row to `lease`. */
  const take = (lease: Lease) => sql`${holder} = ${lease.holder}, ${until} = ${lease.until}`

  /** The `set` list that ends the row's lease, whoever holds it (every other write does). */
  const ended = sql`${holder} = null, ${until} = null`

  /** The `set` list that ends the lease of the row named `alias` only where `holderName` holds it. */
  const endedIfHeldBy = (alias: string, holderName: string) => sql`
    ${holder} = case when ${of(alias, leased.holder)} = ${holderName} then null else ${of(alias, leased.holder)} end,
    ${until} = case when ${of(alias, leased.holder)} = ${holderName} then null else ${of(alias, leased.until)} end`

  /** `holderName` holds the lease of the row named `alias`. */
  const heldBy = (alias: string, holderName: string) => sql`${of(alias, leased.holder)} = ${holderName}`

  /**
   * The update that leases the due, free rows, `limit` of them at most, oldest due first, skipping
   * those another transaction has locked; it returns `returning` of each (in no order: a caller that
   * wants one orders what it selects from it).
   */
  const claimDue = ({ lease, limit, now }: ClaimDueRequest, { due, order, returning }: DueRows) => sql`
    update ${table} set ${take(lease)}
    where (${key}) in (
      select ${key} from ${table}
      where ${due}
        and ${isFree(now)}
      order by ${order}
      limit ${limit}
      for update skip locked)
    returning ${returning}`

  /** The update that gives back the lease of the row with this key, only if `holderName` holds it. */
  const release = (keyValues: Record<Key, unknown>, holderName: string) => sql`
    update ${table} set ${ended}
    where ${sql.and(leased.key.map((column) => sql`${sql(column)} = ${keyValues[column]}`))}
      and ${holder} = ${holderName}`

  return { isFree, take, ended, endedIfHeldBy, heldBy, claimDue, release }
}
