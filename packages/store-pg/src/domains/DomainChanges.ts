/**
 * What every write of changed domains sends, in one statement: the domains' rows (encoded once, as
 * one jsonb array) and their events (the outbox's input, from the same encoding), and the update
 * that stores the rows where the write's own condition holds, bumping their versions and ending
 * their leases.
 */
import { Effect, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { type DomainChange, encodeChanges, OutboxInput } from "../events/Outbox.js"
import { leasesOf } from "../internal/Leases.js"
import { domainLeases, textRowOf } from "./DomainRows.js"

/** What a write of changed domains sends: the outbox's input, and the rows after (JSON text). */
export const ChangesInput = Schema.Struct({ ...OutboxInput.fields, rows: Schema.String })
export type ChangesInput = typeof ChangesInput.Type

/** The rows (of the domains after) and the events of `changes`, in their order. */
export const changesInput = (changes: ReadonlyArray<DomainChange>) =>
  Effect.map(
    encodeChanges(changes),
    ({ after, events }): ChangesInput => ({ ...events, rows: JSON.stringify(after.map(textRowOf)) })
  )

/**
 * The update that stores `rows` (every field but key and account) where `onlyIf` holds too (on
 * `stored` and `result`), bumps their versions and ends their leases: the rows travel as one jsonb
 * array, read back as a record set (timestamps from their ISO text); the keys of those changed come
 * back.
 */
export const updateRows = (sql: SqlClient.SqlClient, rows: string, onlyIf: Statement.Fragment) => sql`
  update custom_domains as stored set
    kind = result.kind, status = result.status, dns_record = result."dnsRecord",
    ownership = result.ownership,
    verification_last_checked_at = result."lastCheckedAt",
    verification_next_check_at = result."nextCheckAt",
    verification_deadline = result.deadline,
    verification_problems = result.problems,
    certificate = result.certificate,
    created_at = result."createdAt",
    issuance = result.issuance,
    issuance_next_attempt_at = result."issuanceNextAttemptAt",
    version = stored.version + 1,
    ${leasesOf(sql, domainLeases).ended}
  from jsonb_to_recordset(${rows}::jsonb) as result(
    hostname text, "projectId" text, kind text, status text, "dnsRecord" jsonb, ownership jsonb,
    "lastCheckedAt" timestamptz, "nextCheckAt" timestamptz, deadline timestamptz, problems jsonb,
    certificate jsonb, "createdAt" timestamptz, issuance jsonb, "issuanceNextAttemptAt" timestamptz,
    version integer)
  where stored.hostname = result.hostname and stored.project_id = result."projectId" ${onlyIf}
  returning stored.project_id as "projectId", stored.hostname`
