/**
 * Expired idempotency keys are purged by reservation time: an index on it lets each purge batch find
 * its rows without reading the table.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create index idempotency_keys_created_at on idempotency_keys (created_at)`
})
