/**
 * Certificate issuance. A domain's `issuance` (the worker's bookkeeping of its certificate order) is
 * jsonb in the domain schema's encoded form; its `nextAttemptAt` is also a column, so that
 * `work_due_at`, generated as the earlier of the next check and the next issuance attempt, says when
 * the worker has anything to do for the domain and a partial index on it serves claims (it replaces
 * the index on the next check alone).
 *
 * Domains verified before this migration get their certificate asked for now (no order yet), so
 * that the worker picks them up like any domain that has just verified.
 *
 * Issued certificates are kept by hostname with their private key encrypted (PrivateKeyCipher's
 * versioned text, never the PEM); removing a domain removes its certificate. HTTP-01 key
 * authorizations are kept by token while the CA validates them, for every process that answers.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    alter table custom_domains
      add column issuance jsonb null check (jsonb_typeof(issuance) = 'object'),
      add column issuance_next_attempt_at timestamptz null,
      add column work_due_at timestamptz
        generated always as (least(verification_next_check_at, issuance_next_attempt_at)) stored,
      add constraint custom_domains_issuance_next_attempt
        check (issuance_next_attempt_at is null or issuance is not null)`
  yield* sql`
    update custom_domains
    set issuance = jsonb_build_object(
          'requestedAt', to_jsonb(now()), 'order', null, 'nextAttemptAt', to_jsonb(now()), 'attempts', 0),
        issuance_next_attempt_at = now()
    where status = 'verified' and issuance is null`
  yield* sql`drop index custom_domains_due`
  yield* sql`
    create index custom_domains_work_due on custom_domains (work_due_at, position)
    where work_due_at is not null`
  yield* sql`
    create table certificates (
      hostname text primary key references custom_domains (hostname) on delete cascade,
      certificate_pem text not null check (certificate_pem <> ''),
      chain_pem text not null,
      private_key_encrypted text not null check (private_key_encrypted ~ '^v[0-9]+[.]'),
      not_after timestamptz not null,
      updated_at timestamptz not null default now()
    )`
  yield* sql`
    create table http01_challenges (
      token text primary key check (token <> ''),
      key_authorization text not null check (key_authorization <> ''),
      created_at timestamptz not null default now()
    )`
})
