/**
 * Webhooks (contract section 5): a project's receivers of its events, the queue of deliveries the
 * events outbox fills, and the attempts at each delivery. The shapes the domain gives ids, secrets,
 * event types and statuses are checked here too, spelt out as they were when this was written: a
 * migration never changes.
 *
 * A delivery is one event owed to one webhook (its primary key), written by the domain repository in
 * the statement that appends the event, due at once. It goes with its webhook (removed: nothing more
 * to send) and with its event: retention forgets events after 30 days, long after the 24 hours a
 * delivery is retried, and a delivery of a forgotten event could never be sent, so it must not stay
 * pending and hold up the later events of its hostname. Its `hostname` is the event's, copied so that
 * the order per webhook and hostname is one index away: the earliest pending delivery of each pair is
 * the only one a worker may claim (`webhook_deliveries_order`); the due ones are a partial index of
 * their own, and the index on the event serves the cascade of retention's deletes. The lease is the one
 * domain checks have. An attempt belongs to its delivery and goes with it; `position` orders attempts
 * recorded at the same instant. Any three digits are a status a receiver may answer (Node reads them
 * all): a stricter check would make a strange receiver's answer a delivery no worker could ever store.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table webhooks (
      id text primary key check (id ~ '^wh_[a-z2-7]{26}$'),
      project_id text not null references projects (id) on delete cascade,
      url text not null check (url <> ''),
      events text[] null check (array_position(events, null) is null and events <@ array['domain.added',
        'domain.verified', 'domain.failed', 'domain.removed', 'domain.problems_changed',
        'certificate.issued', 'certificate.delayed', 'certificate.failed', 'certificate.renewed',
        'certificate.renewal_failed']::text[]),
      secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]{43}=$'),
      created_at timestamptz not null check (isfinite(created_at)),
      position bigint generated always as identity
    )`
  yield* sql`create index webhooks_project on webhooks (project_id, position)`

  yield* sql`
    create table webhook_deliveries (
      webhook_id text not null references webhooks (id) on delete cascade,
      event_id bigint not null references domain_events (id) on delete cascade,
      hostname text not null check (hostname = lower(hostname) and char_length(hostname) <= 253),
      attempts integer not null check (attempts >= 0),
      first_attempt_at timestamptz null,
      next_attempt_at timestamptz not null check (isfinite(next_attempt_at)),
      status text not null check (status in ('pending', 'delivered', 'failed')),
      lease_holder text null,
      lease_until timestamptz null,
      primary key (webhook_id, event_id),
      check ((attempts = 0) = (first_attempt_at is null)),
      check ((lease_holder is null) = (lease_until is null))
    )`
  yield* sql`
    create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`
  yield* sql`
    create index webhook_deliveries_order on webhook_deliveries (webhook_id, hostname, event_id)
    where status = 'pending'`
  yield* sql`create index webhook_deliveries_event on webhook_deliveries (event_id)`

  yield* sql`
    create table webhook_attempts (
      webhook_id text not null,
      event_id bigint not null,
      attempt integer not null check (attempt >= 1),
      status text not null check (status in ('delivered', 'retrying', 'failed')),
      http_status integer null check (http_status between 100 and 999),
      error text null,
      at timestamptz not null check (isfinite(at)),
      position bigint generated always as identity,
      primary key (webhook_id, event_id, attempt),
      foreign key (webhook_id, event_id) references webhook_deliveries (webhook_id, event_id)
        on delete cascade,
      check (status <> 'delivered' or ((http_status between 200 and 299) is true and error is null))
    )`
  yield* sql`create index webhook_attempts_latest on webhook_attempts (webhook_id, at, position)`
})
