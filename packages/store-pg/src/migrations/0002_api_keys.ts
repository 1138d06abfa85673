/**
 * API keys: only the SHA-256 hash of a key is stored, unique, so registering a key twice is a no-op.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table api_keys (
      id text primary key,
      account text not null,
      hash text not null unique check (hash ~ '^[0-9a-f]{64}$'),
      created_at timestamptz not null,
      revoked_at timestamptz null
    )`
})
