/**
 * The reads of the domain repository: a domain of a project, the verified domain of a hostname,
 * the rivals of an account's holds, the names at or under an apex, a project's domains; every row
 * decoded into a `CustomDomain` again.
 */
import { type CustomDomainRepository, Hostname } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { storageOperation } from "../internal/storageOperation.js"
import { apexOf, CustomDomainFromRow, DomainKey, domainColumns } from "./DomainRows.js"

export type DomainReads = Pick<
  CustomDomainRepository["Service"],
  "findInProject" | "findVerified" | "listRivals" | "listAtOrUnder" | "listByProject"
>

export const makeDomainReads = (sql: SqlClient.SqlClient): DomainReads => {
  const columns = sql.literal(domainColumns)

  const findInProject = SqlSchema.findOneOption({
    Request: DomainKey,
    Result: CustomDomainFromRow,
    execute: ({ hostname, projectId }) => sql`
      select ${columns} from custom_domains where project_id = ${projectId} and hostname = ${hostname}`
  })

  // At most one is verified; should two ever be, the one whose verifying check came last.
  const findVerified = SqlSchema.findOneOption({
    Request: Hostname,
    Result: CustomDomainFromRow,
    execute: (hostname) => sql`
      select ${columns} from custom_domains where hostname = ${hostname} and status = 'verified'
      order by verification_last_checked_at desc nulls last, position desc
      limit 1`
  })

  // Each rival once, however many holds it rivals. The hostnames as an array lead the plan to the
  // hostname index: the cost follows the holds asked about, not the table (a semi-join alone
  // scanned every domain).
  const listRivals = SqlSchema.findAll({
    Request: Schema.Array(Schema.Struct({ account: AccountName, hostname: Hostname })),
    Result: CustomDomainFromRow,
    execute: (holds) => {
      const json = JSON.stringify(holds)
      return sql`
        select ${columns} from custom_domains as domain
        where domain.hostname = any(array(select jsonb_array_elements(${json}::jsonb) ->> 'hostname'))
          and exists (
            select from jsonb_to_recordset(${json}::jsonb) as hold(account text, hostname text)
            where hold.hostname = domain.hostname and hold.account <> domain.account)
        order by position`
    }
  })

  // Every name at or under `apex` has its registrable domain: found by the index on it, then the
  // suffix compared as text (not a LIKE pattern: the apex's own characters match only themselves).
  const listAtOrUnder = SqlSchema.findAll({
    Request: Hostname,
    Result: CustomDomainFromRow,
    execute: (apex) => {
      const suffix = `.${apex}`
      return sql`
        select ${columns} from custom_domains
        where apex = ${apexOf(apex)}
          and (hostname = ${apex} or right(hostname, char_length(${suffix}::text)) = ${suffix}::text)
        order by position`
    }
  })

  const listByProject = SqlSchema.findAll({
    Request: ProjectId,
    Result: CustomDomainFromRow,
    execute: (projectId) => sql`
      select ${columns} from custom_domains where project_id = ${projectId} order by position`
  })

  return {
    findInProject: (projectId, hostname) =>
      findInProject({ projectId, hostname }).pipe(storageOperation("CustomDomainRepository.findInProject")),
    findVerified: (hostname) =>
      findVerified(hostname).pipe(storageOperation("CustomDomainRepository.findVerified")),
    listRivals: (holds) => listRivals(holds).pipe(storageOperation("CustomDomainRepository.listRivals")),
    listAtOrUnder: (apex) =>
      listAtOrUnder(apex).pipe(storageOperation("CustomDomainRepository.listAtOrUnder")),
    listByProject: (projectId) =>
      listByProject(projectId).pipe(storageOperation("CustomDomainRepository.listByProject"))
  }
}
