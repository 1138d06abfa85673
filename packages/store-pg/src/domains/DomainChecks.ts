/**
 * The worker's round of domain checks, on the leases of `internal/Leases`. Claiming is one
 * statement: the due domains (`work_due_at` passed) whose lease is free, oldest due first, are
 * leased in the update that selects them, skipping those other claimers lock, so concurrent
 * claimers (other workers, other processes) never lease one domain twice.
 *
 * A round's results are stored at once, in one statement (no transaction around it, nothing read
 * first), each only while the round still holds its lease (every other write ends it) and only if
 * it would not verify a hostname another project has verified; the events from each domain as
 * claimed to its result are kept only for the rows the lease let it change. Giving a lease back is
 * conditional on its holder too.
 */
import { type CustomDomainRepository, Hostname } from "@petstore/domains"
import { ProjectId } from "@petstore/projects"
import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { makeOutbox } from "../events/Outbox.js"
import { clockDate } from "../internal/Instants.js"
import { ClaimDueRequest, claimDueRequest, leasesOf } from "../internal/Leases.js"
import { lastPerKey } from "../internal/RowKeys.js"
import { storageOperation } from "../internal/storageOperation.js"
import { ChangesInput, changesInput, updateRows } from "./DomainChanges.js"
import { CustomDomainFromRow, DomainKey, domainColumns, domainKeyText, domainLeases } from "./DomainRows.js"

export type DomainChecks = Pick<
  CustomDomainRepository["Service"],
  "claimDue" | "countDue" | "releaseLease" | "completeChecks"
>

export const makeDomainChecks = (sql: SqlClient.SqlClient): DomainChecks => {
  const outbox = makeOutbox(sql)
  const leases = leasesOf(sql, domainLeases)
  const columns = sql.literal(domainColumns)

  const claimDue = SqlSchema.findAll({
    Request: ClaimDueRequest,
    Result: CustomDomainFromRow,
    execute: (request) => sql`
      with claimed as (${leases.claimDue(request, {
        due: sql`work_due_at <= ${request.now}`,
        order: sql`work_due_at, position`,
        returning: sql`${columns}, work_due_at, position`
      })})
      select hostname, "projectId", account, kind, status, "dnsRecord", ownership, "lastCheckedAt",
        "nextCheckAt", deadline, problems, certificate, "createdAt", issuance, "issuanceNextAttemptAt",
        version
      from claimed order by work_due_at, position`
  })

  const countDue = SqlSchema.findOne({
    Request: Schema.Date,
    Result: Schema.Struct({ count: Schema.Int }),
    execute: (now) => sql`select count(*)::int as count from custom_domains where work_due_at <= ${now}`
  })

  const releaseLease = SqlSchema.void({
    Request: Schema.Struct({ projectId: ProjectId, hostname: Hostname, holder: Schema.String }),
    execute: ({ holder, hostname, projectId }) => leases.release({ project_id: projectId, hostname }, holder)
  })

  /**
   * Stores the rows `holder` still leases, and the events of those only, in one statement: the
   * update runs before the outbox, which keeps the events of the keys it changed. Their keys come
   * back.
   */
  const storeLeased = SqlSchema.findAll({
    Request: Schema.Struct({ changes: ChangesInput, occurredAt: Schema.Date, holder: Schema.String }),
    Result: DomainKey,
    execute: ({ changes, holder, occurredAt }) => sql`
      with completed as (${updateRows(
        sql,
        changes.rows,
        sql`and ${leases.heldBy("stored", holder)}
          and (result.status <> 'verified' or not exists (
            select from custom_domains as other
            where other.hostname = result.hostname and other.status = 'verified'
              and other.project_id <> result."projectId"))`
      )}),
        ${outbox.withEvents(
          changes,
          occurredAt,
          sql`and (event."projectId", event.hostname) in (select "projectId", hostname from completed)`
        )}
      select "projectId", hostname from completed`
  })

  return {
    claimDue: (now, limit, lease) =>
      claimDue(claimDueRequest(now, limit, lease)).pipe(storageOperation("CustomDomainRepository.claimDue")),
    countDue: (now) =>
      countDue(now).pipe(
        Effect.map(({ count }) => count),
        storageOperation("CustomDomainRepository.countDue")
      ),
    releaseLease: ({ hostname, projectId }, holder) =>
      releaseLease({ projectId, hostname, holder }).pipe(
        storageOperation("CustomDomainRepository.releaseLease")
      ),
    // The last result for a domain is the one stored, should a round carry two.
    completeChecks: (work, holder) => {
      const latest = lastPerKey(work, (done) => domainKeyText(done.result))
      return (
        latest.length === 0
          ? Effect.succeed([])
          : Effect.gen(function* () {
              const occurredAt = yield* clockDate
              const changes = yield* changesInput(
                latest.map(({ claimed, result }) => [claimed, result] as const)
              )
              return yield* storeLeased({ changes, occurredAt, holder })
            })
      ).pipe(storageOperation("CustomDomainRepository.completeChecks"))
    }
  }
}
