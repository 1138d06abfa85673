/**
 * Documentation projects and their custom domains. A hostname is the primary key of its domain, so
 * the database itself keeps one hostname to one project, across accounts. Nested parts of a domain
 * (its DNS instruction, problems, certificate) and a project's domain config are jsonb in the domain
 * schemas' encoded forms. `lease_holder`/`lease_until` are the check lease; the partial index on
 * `verification_next_check_at` serves claims of due domains, `position` keeps insertion order.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    create table projects (
      id text primary key check (id ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
      account text not null,
      plan text not null check (plan in ('free', 'pro', 'enterprise')),
      last_deploy_status text null check (last_deploy_status in ('succeeded', 'failed')),
      last_deploy_at timestamptz null,
      last_succeeded_deploy_at timestamptz null,
      created_at timestamptz not null,
      domain_config jsonb null check (jsonb_typeof(domain_config) = 'object'),
      check ((last_deploy_status is null) = (last_deploy_at is null))
    )`
  yield* sql`
    create table custom_domains (
      hostname text primary key check (hostname = lower(hostname) and char_length(hostname) <= 253),
      project_id text not null references projects (id) on delete cascade,
      kind text not null check (kind in ('subdomain', 'apex')),
      status text not null check (status in ('pending', 'verified', 'failed')),
      dns_record jsonb not null check (jsonb_typeof(dns_record) = 'object'),
      verification_last_checked_at timestamptz null,
      verification_next_check_at timestamptz null,
      verification_deadline timestamptz not null,
      verification_problems jsonb not null check (jsonb_typeof(verification_problems) = 'array'),
      certificate jsonb not null check (jsonb_typeof(certificate) = 'object'),
      created_at timestamptz not null,
      lease_holder text null,
      lease_until timestamptz null,
      position bigint generated always as identity,
      check ((lease_holder is null) = (lease_until is null))
    )`
  yield* sql`
    create index custom_domains_due on custom_domains (verification_next_check_at)
    where verification_next_check_at is not null`
  yield* sql`create index custom_domains_project on custom_domains (project_id, position)`
})
