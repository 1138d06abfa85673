/**
 * The events outbox (contract section 5): a row per event of a domain's change, written by the
 * domain repository in the transaction of the change. `id` is the order events were stored in, the
 * cursor of a project's events (hence the index on project and id); `occurred_at` is what retention
 * forgets by (an index of its own). `data` is the domain's public resource, jsonb in its encoded form.
 * The types are spelt out, as the domain named them when this was written: a migration never changes.
 *
 * No reference to `custom_domains`: a removed domain keeps its events, `domain.removed` last. None to
 * `projects` either: an event is only ever written beside a domain of its project, which references
 * it, and projects are never deleted, so a reference would check nothing new and lock the project's
 * row at every event.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table domain_events (
      id bigint generated always as identity primary key,
      project_id text not null check (project_id ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
      hostname text not null check (hostname = lower(hostname) and char_length(hostname) <= 253),
      type text not null check (type in ('domain.added', 'domain.verified', 'domain.failed',
        'domain.removed', 'domain.problems_changed', 'certificate.issued', 'certificate.delayed',
        'certificate.failed', 'certificate.renewed', 'certificate.renewal_failed')),
      occurred_at timestamptz not null check (isfinite(occurred_at)),
      data jsonb not null check (jsonb_typeof(data) = 'object')
    )`
  yield* sql`create index domain_events_project on domain_events (project_id, id)`
  yield* sql`create index domain_events_occurred_at on domain_events (occurred_at)`
})
