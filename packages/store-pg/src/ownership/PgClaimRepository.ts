/**
 * ClaimRepository on PostgreSQL: `claims` keeps one claim per account and apex (its primary key, so
 * a second insert does nothing whatever the concurrency). The TXT record is jsonb in the claim
 * schema's encoded form; every row is decoded into a `Claim` again.
 *
 * A new claim is counted against its account's limits and added in one transaction under an advisory
 * lock of the account's, so concurrent claims at a limit never overshoot it.
 *
 * Rechecks are leased as domain checks are (`internal/Leases`): one statement leases the due, free
 * claims oldest first, skipping those other workers lock, so no claim is leased twice; storing
 * results and giving a lease back are conditional on the lease holder. Any other write is
 * conditional on the version it was decided from, and bumps it (so does a leased result).
 */

import { Hostname } from "@petstore/domains"
import { AccountName, type LimitValues } from "@petstore/kernel"
import { type Claim, ClaimRepository, claimLimitRefusal } from "@petstore/ownership"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema, type Statement } from "effect/sql"
import { inLockedTransaction, LockSpace } from "../internal/AdvisoryLocks.js"
import { ClaimDueRequest, claimDueRequest, leasesOf } from "../internal/Leases.js"
import { storageOperation } from "../internal/storageOperation.js"
import { ClaimFromRow, type ClaimRow, claimColumns, claimLeases, storeClaimRows } from "./ClaimRows.js"

/** A claim's key: what names one row, and what comes back of the rows changed. */
const ClaimKey = Schema.Struct({ account: AccountName, apex: Hostname })

export const make: Effect.Effect<ClaimRepository["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    const leases = leasesOf(sql, claimLeases)

    const columns = sql.literal(claimColumns)
    const storeRows = (rows: ReadonlyArray<ClaimRow>, condition: Statement.Fragment) =>
      storeClaimRows(sql, rows, condition)

    const insertRow = SqlSchema.findAll({
      Request: ClaimFromRow,
      Result: ClaimKey,
      execute: (row) => sql`
        insert into claims (account, apex, status, txt, verified_at, created_at, last_checked_at,
          next_check_at, version)
        values (${row.account}, ${row.apex}, ${row.status}, ${JSON.stringify(row.txt)}::jsonb,
          ${row.verifiedAt}, ${row.createdAt}, ${row.lastCheckedAt}, ${row.nextCheckAt}, ${row.version})
        on conflict (account, apex) do nothing
        returning account, apex`
    })

    /** Whether the account claims the apex already, and how many claims it has, how many pending. */
    const countOwned = SqlSchema.findOne({
      Request: ClaimKey,
      Result: Schema.Struct({ exists: Schema.Boolean, total: Schema.Int, pending: Schema.Int }),
      execute: ({ account, apex }) => sql`
        select bool_or(apex = ${apex}) is true as exists, count(*)::int as total,
          (count(*) filter (where status = 'pending'))::int as pending
        from claims where account = ${account}`
    })

    /**
     * Counts the account's claims and adds this one in one transaction under an advisory lock of the
     * account's, taken first: two claims at a limit are counted one after the other, never both from
     * the same count. A claim of an apex the account has already is not added, whatever the counts.
     */
    const insert = (
      claim: Claim,
      limits: Pick<LimitValues, "claimsPerAccount" | "pendingClaimsPerAccount">
    ) =>
      inLockedTransaction(
        sql,
        LockSpace.accountClaims,
        claim.account
      )(
        Effect.gen(function* () {
          const owned = yield* countOwned(claim)
          if (owned.exists) return false
          // Refused, nothing is written: the refusal travels as the answer, apart from storage failures.
          const refusal = claimLimitRefusal(owned, limits)
          if (refusal !== undefined) return refusal
          return (yield* insertRow(claim)).length > 0
        })
      )

    const findOwned = SqlSchema.findOneOption({
      Request: ClaimKey,
      Result: ClaimFromRow,
      execute: ({ account, apex }) => sql`
        select ${columns} from claims where account = ${account} and apex = ${apex}`
    })

    const listByAccount = SqlSchema.findAll({
      Request: AccountName,
      Result: ClaimFromRow,
      execute: (account) => sql`select ${columns} from claims where account = ${account} order by position`
    })

    const listByApexes = SqlSchema.findAll({
      Request: Schema.Array(Hostname),
      Result: ClaimFromRow,
      execute: (apexes) => sql`
        select ${columns} from claims
        where apex in (select jsonb_array_elements_text(${JSON.stringify(apexes)}::jsonb))
        order by position`
    })

    const update = SqlSchema.findAll({
      Request: ClaimFromRow,
      Result: ClaimKey,
      execute: (row) => storeRows([row], sql`and stored.version = result.version`)
    })

    const remove = SqlSchema.findAll({
      Request: ClaimKey,
      Result: ClaimKey,
      execute: ({ account, apex }) => sql`
        delete from claims where account = ${account} and apex = ${apex} returning account, apex`
    })

    const claimDue = SqlSchema.findAll({
      Request: ClaimDueRequest,
      Result: ClaimFromRow,
      execute: (request) => sql`
        with leased as (${leases.claimDue(request, {
          due: sql`next_check_at <= ${request.now}`,
          order: sql`next_check_at, position`,
          returning: sql`${columns}, position`
        })})
        select account, apex, status, txt, "verifiedAt", "createdAt", "lastCheckedAt", "nextCheckAt",
          version
        from leased order by "nextCheckAt", position`
    })

    // A round's results in one statement, each stored only while `holder` holds its lease.
    const completeChecks = SqlSchema.findAll({
      Request: Schema.Struct({ claims: Schema.Array(ClaimFromRow), holder: Schema.String }),
      Result: ClaimKey,
      execute: ({ claims, holder }) => storeRows(claims, sql`and ${leases.heldBy("stored", holder)}`)
    })

    const releaseLease = SqlSchema.void({
      Request: Schema.Struct({ ...ClaimKey.fields, holder: Schema.String }),
      execute: ({ account, apex, holder }) => leases.release({ account, apex }, holder)
    })

    return ClaimRepository.of({
      insert: (claim, limits) =>
        insert(claim, limits).pipe(
          storageOperation("ClaimRepository.insert"),
          Effect.flatMap((outcome) =>
            typeof outcome === "boolean" ? Effect.succeed(outcome) : Effect.fail(outcome)
          )
        ),
      findOwned: (account, apex) =>
        findOwned({ account, apex }).pipe(storageOperation("ClaimRepository.findOwned")),
      listByAccount: (account) =>
        listByAccount(account).pipe(storageOperation("ClaimRepository.listByAccount")),
      listByApexes: (apexes) => listByApexes(apexes).pipe(storageOperation("ClaimRepository.listByApexes")),
      update: (claim) =>
        update(claim).pipe(
          Effect.map((rows) => rows.length > 0),
          storageOperation("ClaimRepository.update")
        ),
      remove: (account, apex) =>
        remove({ account, apex }).pipe(
          Effect.map((rows) => rows.length > 0),
          storageOperation("ClaimRepository.remove")
        ),
      claimDue: (now, limit, lease) =>
        claimDue(claimDueRequest(now, limit, lease)).pipe(storageOperation("ClaimRepository.claimDue")),
      completeChecks: (claims, holder) =>
        (claims.length === 0 ? Effect.succeed([]) : completeChecks({ claims, holder })).pipe(
          Effect.map((rows) => rows.length),
          storageOperation("ClaimRepository.completeChecks")
        ),
      releaseLease: (account, apex, holder) =>
        releaseLease({ account, apex, holder }).pipe(storageOperation("ClaimRepository.releaseLease"))
    })
  }
)

export const layer: Layer.Layer<ClaimRepository, never, SqlClient.SqlClient> = Layer.effect(
  ClaimRepository,
  make
)
