/**
 * Adding and removing a domain, each with its events (the outbox). A domain's key is its project
 * and hostname, and the hostname is unique per account, so whatever the concurrency an account has
 * a hostname once: a second insert is refused by the database (`HostnameTaken`), while other
 * accounts may have the same hostname. An insert counts its project's domains and adds its own in
 * one transaction under an advisory lock of the project's, so concurrent additions at the limit
 * never overshoot it; its events are in the same statement. A removal deletes the row, read back as
 * it was, then appends its event; a domain not there appends nothing.
 */
import { type CustomDomain, type CustomDomainRepository, HostnameTaken } from "@petstore/domains"
import { type LimitReached, limitReached } from "@petstore/kernel"
import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { makeOutbox, OutboxInput } from "../events/Outbox.js"
import { inLockedTransaction, LockSpace } from "../internal/AdvisoryLocks.js"
import { clockDate } from "../internal/Instants.js"
import { storageOperation } from "../internal/storageOperation.js"
import { isUniqueViolation } from "../internal/uniqueViolation.js"
import { changesInput } from "./DomainChanges.js"
import { apexOf, CustomDomainFromRow, DomainKey, domainColumns } from "./DomainRows.js"

export type DomainInsertAndRemove = Pick<CustomDomainRepository["Service"], "insert" | "remove">

export const makeDomainInsertAndRemove = (sql: SqlClient.SqlClient): DomainInsertAndRemove => {
  const outbox = makeOutbox(sql)
  const columns = sql.literal(domainColumns)
  const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`
  const jsonOrNull = (value: unknown) => (value === null ? sql`null` : json(value))

  /**
   * One statement: the domain and its events, only while its project has fewer than
   * `maxPerProject` domains (both parts read the same count); should the domain be refused (its
   * hostname taken), so are its events. Its key comes back when it was added.
   */
  const insertBelow = SqlSchema.findAll({
    Request: Schema.Struct({
      row: CustomDomainFromRow,
      events: OutboxInput,
      occurredAt: Schema.Date,
      maxPerProject: Schema.Int
    }),
    Result: DomainKey,
    execute: ({ events, maxPerProject, occurredAt, row }) => {
      const belowLimit = sql`(select count(*) from custom_domains where project_id = ${row.projectId}) < ${maxPerProject}`
      return sql`
        with ${outbox.withEvents(events, occurredAt, sql`and ${belowLimit}`)}
        insert into custom_domains (hostname, project_id, account, kind, status, dns_record, ownership,
          verification_last_checked_at, verification_next_check_at, verification_deadline,
          verification_problems, certificate, created_at, issuance, issuance_next_attempt_at, version,
          apex)
        select ${row.hostname}, ${row.projectId}, ${row.account}, ${row.kind}, ${row.status},
          ${json(row.dnsRecord)}, ${json(row.ownership)}, ${row.lastCheckedAt}, ${row.nextCheckAt},
          ${row.deadline}, ${json(row.problems)}, ${json(row.certificate)}, ${row.createdAt},
          ${jsonOrNull(row.issuance)}, ${row.issuanceNextAttemptAt}, ${row.version}, ${apexOf(row.hostname)}
        where ${belowLimit}
        returning project_id as "projectId", hostname`
    }
  })

  /**
   * Counts the project's domains and adds this one in one transaction under an advisory lock of the
   * project's, taken first: two additions at the limit are counted one after the other, never both
   * from the same count.
   */
  const insert = (domain: CustomDomain, maxPerProject: number) =>
    inLockedTransaction(
      sql,
      LockSpace.projectDomains,
      domain.projectId
    )(
      Effect.gen(function* () {
        const occurredAt = yield* clockDate
        const events = yield* changesInput([[undefined, domain]])
        return yield* insertBelow({ row: domain, events, occurredAt, maxPerProject })
      })
    )

  // The row as it was comes back: the event of its removal tells it.
  const removeRow = SqlSchema.findAll({
    Request: DomainKey,
    Result: CustomDomainFromRow,
    execute: ({ hostname, projectId }) => sql`
      delete from custom_domains where hostname = ${hostname} and project_id = ${projectId}
      returning ${columns}`
  })

  return {
    insert: (domain, limits) =>
      insert(domain, limits.domainsPerProject).pipe(
        Effect.map((added) => (added.length === 0 ? ("limit" as const) : ("inserted" as const))),
        Effect.catchIf(
          (error) =>
            isUniqueViolation("custom_domains_pkey")(error) ||
            isUniqueViolation("custom_domains_account_hostname")(error),
          () => Effect.succeed("taken" as const)
        ),
        storageOperation("CustomDomainRepository.insert"),
        Effect.flatMap((outcome): Effect.Effect<void, HostnameTaken | LimitReached> => {
          if (outcome === "taken") return Effect.fail(new HostnameTaken({ hostname: domain.hostname }))
          if (outcome === "limit")
            return Effect.fail(limitReached("domainsPerProject", limits.domainsPerProject))
          return Effect.void
        })
      ),
    remove: (projectId, hostname) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const occurredAt = yield* clockDate
            const [removed] = yield* removeRow({ projectId, hostname })
            if (removed === undefined) return Option.none()
            yield* outbox.append({ events: yield* changesInput([[removed, undefined]]), occurredAt })
            return Option.some(removed)
          })
        )
        .pipe(storageOperation("CustomDomainRepository.remove"))
  }
}
