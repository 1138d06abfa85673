/**
 * Conditional writes of domains: a write decided from stored domains is stored only if each is
 * still at the version it was decided from (every write bumps it). The rows are locked
 * (`for update`, in key order, read back as they are), their versions checked, then the rows and
 * their events are stored, all in one transaction, all or nothing. The domains that stop being
 * verified are written before those that become verified: at most one domain of a hostname is
 * verified (a partial unique index, checked row by row), and a write that would verify a second is a
 * lost race, never a failure. So is a row changed or gone, or the database refusing the write as a
 * race (a deadlock between writers, a serialization failure): nothing is stored, the answer is false.
 *
 * `CustomDomainRepository.update` is such a write of one domain; the store of decided writes
 * (`ownership/PgDecidedWritesStore`) locks and stores the claims of the same decision beside them.
 */
import type { CustomDomain } from "@petstore/domains"
import { Effect, Schema } from "effect"
import { type SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { makeOutbox } from "../events/Outbox.js"
import { clockDate } from "../internal/Instants.js"
import { isRaceRefusal, LostRace } from "../internal/lostRace.js"
import { ChangesInput, changesInput, updateRows } from "./DomainChanges.js"
import { CustomDomainFromRow, DomainKey, domainColumns, domainKeyText } from "./DomainRows.js"

/** Decided domains locked: whether each is still as decided, and the write that stores them then. */
export interface LockedDomains {
  readonly asDecided: boolean
  readonly store: (occurredAt: Date) => Effect.Effect<void, SqlError.SqlError | Schema.SchemaError>
}

export const makeDomainConditionalWrites = (sql: SqlClient.SqlClient) => {
  const outbox = makeOutbox(sql)
  const columns = sql.literal(domainColumns)

  /**
   * Stores the rows and appends their events, in one statement, each row only at the version it
   * was decided from. Called with the rows locked and their versions checked, so every one is there
   * to change; their keys come back.
   */
  const storeRows = SqlSchema.findAll({
    Request: Schema.Struct({ changes: ChangesInput, occurredAt: Schema.Date }),
    Result: DomainKey,
    execute: ({ changes, occurredAt }) =>
      sql`with ${outbox.withEvents(changes, occurredAt)} ${updateRows(sql, changes.rows, sql`and stored.version = result.version`)}`
  })

  /** Locks the stored domains with these keys until the transaction ends, in key order; what they are now. */
  const lockStored = SqlSchema.findAll({
    Request: Schema.Array(DomainKey),
    Result: CustomDomainFromRow,
    execute: (keys) => sql`
      select ${columns} from custom_domains
      where (project_id, hostname) in (
        select "projectId", hostname from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb)
          as key("projectId" text, hostname text))
      order by project_id, hostname
      for update`
  })

  /** Stores `domains` over what is stored of them, those that stop being verified first. */
  const storeGroups = (
    domains: ReadonlyArray<CustomDomain>,
    storedByKey: ReadonlyMap<string, CustomDomain>,
    occurredAt: Date
  ) =>
    Effect.gen(function* () {
      const becoming = domains.filter((domain) => domain.status === "verified")
      const others = domains.filter((domain) => domain.status !== "verified")
      for (const group of [others, becoming]) {
        if (group.length === 0) continue
        const changes = yield* changesInput(
          group.map((domain) => [storedByKey.get(domainKeyText(domain)), domain] as const)
        )
        yield* storeRows({ changes, occurredAt })
      }
    })

  /** Locks the stored rows of `domains` until the transaction ends (see `LockedDomains`). */
  const lockDecided = (domains: ReadonlyArray<CustomDomain>) =>
    Effect.map(
      lockStored(domains.map(({ hostname, projectId }) => ({ hostname, projectId }))),
      (stored): LockedDomains => {
        const storedByKey = new Map(stored.map((domain) => [domainKeyText(domain), domain]))
        return {
          asDecided: domains.every(
            (domain) => storedByKey.get(domainKeyText(domain))?.version === domain.version
          ),
          store: (occurredAt) => storeGroups(domains, storedByKey, occurredAt)
        }
      }
    )

  /**
   * `decision` in one transaction, all or nothing: should it fail with a `LostRace`, or the database
   * refuse one of its writes as a race, it is rolled back and the answer is false.
   */
  const inDecidedTransaction = <E, R>(decision: Effect.Effect<boolean, E | LostRace, R>) =>
    sql
      .withTransaction(
        decision.pipe(
          Effect.catchIf(isRaceRefusal("custom_domains_one_verified"), () => Effect.fail(new LostRace()))
        )
      )
      .pipe(Effect.catchTag("LostRace", () => Effect.succeed(false)))

  /** Stores `domains`, each only at the version it carries, with their events: false when one is not. */
  const storeDecided = (domains: ReadonlyArray<CustomDomain>) =>
    inDecidedTransaction(
      Effect.gen(function* () {
        const occurredAt = yield* clockDate
        const locked = yield* lockDecided(domains)
        if (!locked.asDecided) return yield* new LostRace()
        yield* locked.store(occurredAt)
        return true
      })
    )

  return { lockDecided, inDecidedTransaction, storeDecided }
}
