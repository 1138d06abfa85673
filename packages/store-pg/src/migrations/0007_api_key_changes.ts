/**
 * Every change to `api_keys` is announced on the `api_key_changes` channel with the hash it
 * concerns (a changed hash announces both), so that a process keeping keys in memory drops one as
 * soon as another process revokes, removes or alters it. Emptying the table announces an empty
 * payload: everything changed. Notifications are sent when the change commits, and only then.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create function api_keys_announce_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify('api_key_changes', '');
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        perform pg_notify('api_key_changes', old.hash);
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.hash is distinct from old.hash) then
        perform pg_notify('api_key_changes', new.hash);
      end if;
      return null;
    end
    $$`
  yield* sql`
    create trigger api_keys_announce_change after insert or update or delete on api_keys
    for each row execute function api_keys_announce_change()`
  yield* sql`
    create trigger api_keys_announce_truncate after truncate on api_keys
    for each statement execute function api_keys_announce_change()`
})
