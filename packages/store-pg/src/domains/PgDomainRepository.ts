/**
 * CustomDomainRepository on PostgreSQL (`custom_domains`), composed of its concepts: the rows
 * (`DomainRows`), the reads (`DomainReads`), adding and removing (`DomainInsertAndRemove`), writes
 * conditional on the version decided from (`DomainConditionalWrites`, which `update` is), and the
 * worker's leased round of checks (`DomainChecks`). Every write appends the events of its change in
 * its own transaction and queues their deliveries (`events/Outbox`); a write refused changes
 * nothing, so appends nothing.
 */
import { CustomDomainRepository } from "@petstore/domains"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { storageOperation } from "../internal/storageOperation.js"
import { makeDomainChecks } from "./DomainChecks.js"
import { makeDomainConditionalWrites } from "./DomainConditionalWrites.js"
import { makeDomainInsertAndRemove } from "./DomainInsertAndRemove.js"
import { makeDomainReads } from "./DomainReads.js"

/** The repository, named (`const { domains } = yield* make`). */
export const make: Effect.Effect<
  { readonly domains: CustomDomainRepository["Service"] },
  never,
  SqlClient.SqlClient
> = Effect.map(SqlClient.SqlClient, (sql) => {
  const writes = makeDomainConditionalWrites(sql)
  return {
    domains: CustomDomainRepository.of({
      ...makeDomainReads(sql),
      ...makeDomainInsertAndRemove(sql),
      ...makeDomainChecks(sql),
      update: (domain) =>
        writes.storeDecided([domain]).pipe(storageOperation("CustomDomainRepository.update"))
    })
  }
})

export const layer: Layer.Layer<CustomDomainRepository, never, SqlClient.SqlClient> = Layer.effect(
  CustomDomainRepository,
  Effect.map(make, ({ domains }) => domains)
)
