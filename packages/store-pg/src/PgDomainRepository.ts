/**
 * DomainRepository on PostgreSQL. The hostname is the primary key of `custom_domains`, so one
 * hostname belongs to one project across all accounts, whatever the concurrency: a second insert is
 * refused by the database (`HostnameTaken`). Nested parts are jsonb in the domain schemas' encoded
 * forms; every row is decoded into a `CustomDomain` again.
 *
 * Claiming is one statement: select the due, unleased rows oldest first `for update skip locked`,
 * and lease them in the same update, so concurrent claimers (other workers, other processes) skip
 * each other's rows and never lease one domain twice. Completing a check and giving a lease back are
 * conditional on the lease holder.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import {
  Certificate,
  CustomDomain,
  DnsRecordInstruction,
  DomainKind,
  DomainRepository,
  DomainStatus,
  Hostname,
  HostnameTaken,
  Problem,
  ProjectId
} from "@petstore/domain"
import { Effect, Layer, ParseResult, Schema } from "effect"
import { storageOperation } from "./internal/storageOperation.js"
import { isUniqueViolation } from "./internal/uniqueViolation.js"

/** A `custom_domains` row as selected below: jsonb parsed by node-postgres, timestamps as `Date`. */
const DomainRow = Schema.Struct({
  hostname: Schema.String,
  projectId: Schema.String,
  kind: DomainKind,
  status: DomainStatus,
  dnsRecord: Schema.encodedSchema(DnsRecordInstruction),
  lastCheckedAt: Schema.NullOr(Schema.ValidDateFromSelf),
  nextCheckAt: Schema.NullOr(Schema.ValidDateFromSelf),
  deadline: Schema.ValidDateFromSelf,
  problems: Schema.encodedSchema(Schema.Array(Problem)),
  certificate: Schema.encodedSchema(Certificate),
  createdAt: Schema.ValidDateFromSelf
})
type DomainRow = typeof DomainRow.Type

const isoOrNull = (date: Date | null): string | null => (date === null ? null : date.toISOString())
const dateOrNull = (iso: string | null): Date | null => (iso === null ? null : new Date(iso))

/** A row decoded into a `CustomDomain` (every field checked again), and a domain encoded into a row. */
const CustomDomainFromRow = Schema.transformOrFail(DomainRow, CustomDomain, {
  strict: true,
  decode: (row) =>
    ParseResult.succeed({
      hostname: row.hostname,
      projectId: row.projectId,
      kind: row.kind,
      status: row.status,
      dnsRecord: row.dnsRecord,
      verification: {
        lastCheckedAt: isoOrNull(row.lastCheckedAt),
        nextCheckAt: isoOrNull(row.nextCheckAt),
        deadline: row.deadline.toISOString(),
        problems: row.problems
      },
      certificate: row.certificate,
      createdAt: row.createdAt.toISOString()
    }),
  encode: (domain) =>
    ParseResult.succeed({
      hostname: domain.hostname,
      projectId: domain.projectId,
      kind: domain.kind,
      status: domain.status,
      dnsRecord: domain.dnsRecord,
      lastCheckedAt: dateOrNull(domain.verification.lastCheckedAt),
      nextCheckAt: dateOrNull(domain.verification.nextCheckAt),
      deadline: new Date(domain.verification.deadline),
      problems: domain.verification.problems,
      certificate: domain.certificate,
      createdAt: new Date(domain.createdAt)
    })
})

const Changed = Schema.Struct({ hostname: Schema.String })

const Lease = Schema.Struct({ holder: Schema.String, until: Schema.ValidDateFromSelf })

export const make: Effect.Effect<DomainRepository["Type"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql.literal(`hostname, project_id as "projectId", kind, status, dns_record as "dnsRecord",
      verification_last_checked_at as "lastCheckedAt", verification_next_check_at as "nextCheckAt",
      verification_deadline as "deadline", verification_problems as "problems", certificate,
      created_at as "createdAt"`)

    const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`

    /** Every stored field of the domain but its key and owner. */
    const assignments = (row: DomainRow) => sql`
      kind = ${row.kind}, status = ${row.status}, dns_record = ${json(row.dnsRecord)},
      verification_last_checked_at = ${row.lastCheckedAt},
      verification_next_check_at = ${row.nextCheckAt},
      verification_deadline = ${row.deadline},
      verification_problems = ${json(row.problems)},
      certificate = ${json(row.certificate)},
      created_at = ${row.createdAt}`

    const insert = SqlSchema.void({
      Request: CustomDomainFromRow,
      execute: (row) => sql`
        insert into custom_domains (hostname, project_id, kind, status, dns_record,
          verification_last_checked_at, verification_next_check_at, verification_deadline,
          verification_problems, certificate, created_at)
        values (${row.hostname}, ${row.projectId}, ${row.kind}, ${row.status}, ${json(row.dnsRecord)},
          ${row.lastCheckedAt}, ${row.nextCheckAt}, ${row.deadline},
          ${json(row.problems)}, ${json(row.certificate)}, ${row.createdAt})`
    })

    const findByHostname = SqlSchema.findOne({
      Request: Hostname,
      Result: CustomDomainFromRow,
      execute: (hostname) => sql`select ${columns} from custom_domains where hostname = ${hostname}`
    })

    const listByProject = SqlSchema.findAll({
      Request: ProjectId,
      Result: CustomDomainFromRow,
      execute: (projectId) => sql`
        select ${columns} from custom_domains where project_id = ${projectId} order by position`
    })

    const update = SqlSchema.findAll({
      Request: CustomDomainFromRow,
      Result: Changed,
      execute: (row) => sql`
        update custom_domains set ${assignments(row)}, lease_holder = null, lease_until = null
        where hostname = ${row.hostname} and project_id = ${row.projectId}
        returning hostname`
    })

    const remove = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: ProjectId, hostname: Hostname }),
      Result: Changed,
      execute: ({ hostname, projectId }) => sql`
        delete from custom_domains where hostname = ${hostname} and project_id = ${projectId}
        returning hostname`
    })

    const claimDue = SqlSchema.findAll({
      Request: Schema.Struct({ now: Schema.ValidDateFromSelf, limit: Schema.Int, lease: Lease }),
      Result: CustomDomainFromRow,
      execute: ({ lease, limit, now }) => sql`
        with claimed as (
          update custom_domains set lease_holder = ${lease.holder}, lease_until = ${lease.until}
          where hostname in (
            select hostname from custom_domains
            where verification_next_check_at <= ${now}
              and (lease_until is null or lease_until <= ${now})
            order by verification_next_check_at, position
            limit ${limit}
            for update skip locked)
          returning ${columns}, position)
        select hostname, "projectId", kind, status, "dnsRecord", "lastCheckedAt", "nextCheckAt", deadline,
          problems, certificate, "createdAt"
        from claimed order by "nextCheckAt", position`
    })

    const releaseLease = SqlSchema.void({
      Request: Schema.Struct({ hostname: Hostname, holder: Schema.String }),
      execute: ({ holder, hostname }) => sql`
        update custom_domains set lease_holder = null, lease_until = null
        where hostname = ${hostname} and lease_holder = ${holder}`
    })

    const completeCheck = SqlSchema.findAll({
      Request: Schema.Struct({ domain: CustomDomainFromRow, holder: Schema.String }),
      Result: Changed,
      execute: ({ domain, holder }) => sql`
        update custom_domains set ${assignments(domain)}, lease_holder = null, lease_until = null
        where hostname = ${domain.hostname} and project_id = ${domain.projectId}
          and lease_holder = ${holder}
        returning hostname`
    })

    return DomainRepository.of({
      insert: (domain) =>
        insert(domain).pipe(
          Effect.as(true),
          Effect.catchIf(isUniqueViolation("custom_domains_pkey"), () => Effect.succeed(false)),
          storageOperation("DomainRepository.insert"),
          Effect.filterOrFail(
            (inserted) => inserted,
            () => new HostnameTaken({ hostname: domain.hostname })
          ),
          Effect.asVoid
        ),
      findByHostname: (hostname) =>
        findByHostname(hostname).pipe(storageOperation("DomainRepository.findByHostname")),
      listByProject: (projectId) =>
        listByProject(projectId).pipe(storageOperation("DomainRepository.listByProject")),
      update: (domain) =>
        update(domain).pipe(
          Effect.map((rows) => rows.length > 0),
          storageOperation("DomainRepository.update")
        ),
      remove: (projectId, hostname) =>
        remove({ projectId, hostname }).pipe(
          Effect.map((rows) => rows.length > 0),
          storageOperation("DomainRepository.remove")
        ),
      claimDue: (now, limit, lease) =>
        claimDue({ now, limit: Math.max(0, Math.floor(limit)), lease }).pipe(
          storageOperation("DomainRepository.claimDue")
        ),
      releaseLease: (hostname, holder) =>
        releaseLease({ hostname, holder }).pipe(storageOperation("DomainRepository.releaseLease")),
      completeCheck: (domain, holder) =>
        completeCheck({ domain, holder }).pipe(
          Effect.map((rows) => rows.length > 0),
          storageOperation("DomainRepository.completeCheck")
        )
    })
  }
)

export const layer: Layer.Layer<DomainRepository, never, SqlClient.SqlClient> = Layer.effect(
  DomainRepository,
  make
)
