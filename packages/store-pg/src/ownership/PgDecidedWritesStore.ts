/**
 * DecidedWritesStore on PostgreSQL: a decision's writes (a check's winner and losers, a claim's
 * proof and the domains it takes) stored in one transaction, each row only at the version it
 * carries, all or nothing. The rows are locked (`for update`, read back as they are), domains then
 * claims, each in key order, so that two deciders never wait on each other crosswise; their
 * versions are checked; then the domains are stored with their events (as
 * `domains/DomainConditionalWrites` stores them) and the claims, each bumping its version. A row
 * changed or gone, or the database refusing a write as a race, rolls it all back: false.
 */
import { type DecidedWrites, DecidedWritesStore } from "@petstore/ownership"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { makeDomainConditionalWrites } from "../domains/DomainConditionalWrites.js"
import { clockDate } from "../internal/Instants.js"
import { LostRace } from "../internal/lostRace.js"
import { keyText } from "../internal/RowKeys.js"
import { storageOperation } from "../internal/storageOperation.js"
import { ClaimFromRow, storeClaimRows } from "./ClaimRows.js"

const ClaimKeyText = Schema.Struct({ account: Schema.String, apex: Schema.String })

export const make: Effect.Effect<DecidedWritesStore["Service"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const domains = makeDomainConditionalWrites(sql)

    /** Locks the stored claims with these keys until the transaction ends, in key order; their versions. */
    const lockClaims = SqlSchema.findAll({
      Request: Schema.Array(ClaimKeyText),
      Result: Schema.Struct({ ...ClaimKeyText.fields, version: Schema.Number }),
      execute: (keys) => sql`
        select account, apex, version from claims
        where (account, apex) in (
          select account, apex from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb)
            as key(account text, apex text))
        order by account, apex
        for update`
    })

    const storeClaims = SqlSchema.findAll({
      Request: Schema.Array(ClaimFromRow),
      Result: ClaimKeyText,
      execute: (rows) => storeClaimRows(sql, rows, sql`and stored.version = result.version`)
    })

    const storeDecided = (writes: DecidedWrites) =>
      domains.inDecidedTransaction(
        Effect.gen(function* () {
          const occurredAt = yield* clockDate
          const lockedDomains = yield* domains.lockDecided(writes.domains)
          const storedClaims = yield* lockClaims(
            writes.claims.map(({ account, apex }) => ({ account, apex }))
          )
          const claimVersions = new Map(
            storedClaims.map((claim) => [keyText(claim.account, claim.apex), claim.version])
          )
          const asDecided =
            lockedDomains.asDecided &&
            writes.claims.every(
              (claim) => claimVersions.get(keyText(claim.account, claim.apex)) === claim.version
            )
          if (!asDecided) return yield* new LostRace()
          yield* lockedDomains.store(occurredAt)
          if (writes.claims.length > 0) yield* storeClaims(writes.claims)
          return true
        })
      )

    return DecidedWritesStore.of({
      storeDecided: (writes) =>
        (writes.domains.length === 0 && writes.claims.length === 0
          ? Effect.succeed(true)
          : storeDecided(writes)
        ).pipe(storageOperation("DecidedWritesStore.storeDecided"))
    })
  }
)

export const layer: Layer.Layer<DecidedWritesStore, never, SqlClient.SqlClient> = Layer.effect(
  DecidedWritesStore,
  make
)
