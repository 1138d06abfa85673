/**
 * A `claims` row as the stores select it, decoded into a `Claim` (every field checked again), and the
 * update that writes claims: shared by the claim repository and the domain repository, which stores
 * a claim's proof with the domains it takes in one transaction.
 */
import { Claim, ClaimRecord, ClaimStatus } from "@petstore/ownership"
import { Schema, SchemaTransformation } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { dateFromIso, isoText } from "../internal/Instants.js"
import { type LeasedTable, leaseColumns, leasesOf } from "../internal/Leases.js"

/** A `claims` row as selected by `claimColumns`: jsonb parsed by @effect/sql-pg, timestamps as `Date`. */
const ClaimRow = Schema.Struct({
  account: Schema.String,
  apex: Schema.String,
  status: ClaimStatus,
  txt: Schema.toEncoded(ClaimRecord),
  verifiedAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  lastCheckedAt: Schema.NullOr(Schema.Date),
  nextCheckAt: Schema.NullOr(Schema.Date),
  version: Schema.Number
})
export type ClaimRow = typeof ClaimRow.Type

/** A row decoded into a `Claim`, and a claim encoded into a row. */
export const ClaimFromRow = ClaimRow.pipe(
  Schema.decodeTo(
    Claim,
    SchemaTransformation.transform({
      decode: (row) => ({
        apex: row.apex,
        status: row.status,
        txt: row.txt,
        verifiedAt: isoText(row.verifiedAt),
        account: row.account,
        createdAt: isoText(row.createdAt),
        lastCheckedAt: isoText(row.lastCheckedAt),
        nextCheckAt: isoText(row.nextCheckAt),
        version: row.version
      }),
      encode: (claim): ClaimRow => ({
        account: claim.account,
        apex: claim.apex,
        status: claim.status,
        txt: claim.txt,
        verifiedAt: dateFromIso(claim.verifiedAt),
        createdAt: dateFromIso(claim.createdAt),
        lastCheckedAt: dateFromIso(claim.lastCheckedAt),
        nextCheckAt: dateFromIso(claim.nextCheckAt),
        version: claim.version
      })
    })
  )
)

/** Where claims keep the lease of a worker's recheck. */
export const claimLeases: LeasedTable<"account" | "apex"> = {
  table: "claims",
  key: ["account", "apex"],
  ...leaseColumns
}

export const claimColumns = `account, apex, status, txt, verified_at as "verifiedAt",
  created_at as "createdAt", last_checked_at as "lastCheckedAt", next_check_at as "nextCheckAt", version`

/**
 * Stores `rows` (every field but key and creation), bumps their versions and ends their leases, in
 * one statement, each only where `condition` (on `stored` and `result`) also holds; the keys of those
 * changed come back.
 */
export const storeClaimRows = (
  sql: SqlClient.SqlClient,
  rows: ReadonlyArray<ClaimRow>,
  condition: Statement.Fragment
) => sql`
  update claims as stored set
    status = result.status, txt = result.txt, verified_at = result."verifiedAt",
    last_checked_at = result."lastCheckedAt", next_check_at = result."nextCheckAt",
    version = stored.version + 1, ${leasesOf(sql, claimLeases).ended}
  from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as result(
    account text, apex text, status text, txt jsonb, "verifiedAt" timestamptz,
    "lastCheckedAt" timestamptz, "nextCheckAt" timestamptz, version integer)
  where stored.account = result.account and stored.apex = result.apex ${condition}
  returning stored.account, stored.apex`
