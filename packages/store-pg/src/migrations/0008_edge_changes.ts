/**
 * Every change that can change what the edge serves is announced on the `edge_changes` channel, so
 * that a process keeping the edge's decisions in memory drops them as soon as another process (a
 * worker, another replica, an operator's SQL) makes one: `hostname:<name>` for a domain added,
 * removed, or whose status, project or name changed, and for its certificate; `project:<id>` for any
 * change of a project (its plan, deploys, domain config). A domain's other columns (verification
 * times, leases, issuance bookkeeping) change at every check and decide nothing the edge serves, so
 * they announce nothing. Emptying a table announces an empty payload: everything changed.
 * Notifications are sent when the change commits, and only then.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create function edge_announce_change() returns trigger language plpgsql as $$
    declare
      kind text := case when tg_table_name = 'projects' then 'project:' else 'hostname:' end;
      old_key text;
      new_key text;
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify('edge_changes', '');
        return null;
      end if;
      if tg_table_name = 'projects' then
        old_key := case when tg_op in ('UPDATE', 'DELETE') then old.id end;
        new_key := case when tg_op in ('UPDATE', 'INSERT') then new.id end;
      else
        old_key := case when tg_op in ('UPDATE', 'DELETE') then old.hostname end;
        new_key := case when tg_op in ('UPDATE', 'INSERT') then new.hostname end;
      end if;
      if old_key is not null then
        perform pg_notify('edge_changes', kind || old_key);
      end if;
      if new_key is not null and new_key is distinct from old_key then
        perform pg_notify('edge_changes', kind || new_key);
      end if;
      return null;
    end
    $$`
  yield* sql`
    create trigger projects_announce_edge_change after insert or update or delete on projects
    for each row execute function edge_announce_change()`
  yield* sql`
    create trigger custom_domains_announce_edge_change after insert or delete on custom_domains
    for each row execute function edge_announce_change()`
  yield* sql`
    create trigger custom_domains_announce_edge_update after update on custom_domains
    for each row
    when (old.status is distinct from new.status
          or old.project_id is distinct from new.project_id
          or old.hostname is distinct from new.hostname)
    execute function edge_announce_change()`
  yield* sql`
    create trigger certificates_announce_edge_change after insert or update or delete on certificates
    for each row execute function edge_announce_change()`
  for (const table of ["projects", "custom_domains", "certificates"]) {
    yield* sql`
      create trigger ${sql(`${table}_announce_edge_truncate`)} after truncate on ${sql(table)}
      for each statement execute function edge_announce_change()`
  }
})
