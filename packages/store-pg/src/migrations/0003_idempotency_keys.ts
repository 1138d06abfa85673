/**
 * Idempotency keys, one row per (account, key): the request's fingerprint, when it was reserved, and
 * the animal it created once it has completed.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table idempotency_keys (
      account text not null,
      key text not null,
      fingerprint text not null,
      pet_id bigint null references pets (id),
      created_at timestamptz not null,
      primary key (account, key)
    )`
})
