/**
 * The animals. Ids and category ids are capped at 2^53−1 so that every value survives JSON; the
 * `(status, id)` index serves the status filter with keyset paging.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table pets (
      id bigint generated always as identity (maxvalue 9007199254740991) primary key
        check (id between 1 and 9007199254740991),
      name text not null check (char_length(name) between 1 and 200),
      category_id bigint not null check (category_id between 1 and 9007199254740991),
      status text not null check (status in ('available', 'pending', 'sold')),
      created_at timestamptz not null default now()
    )`
  yield* sql`create index pets_status_id on pets (status, id)`
})
