/**
 * Ownership of custom domains (contract section 4). A hostname is no longer one project's across all
 * accounts: several accounts may have it, each once (unique per account and hostname), and the key
 * of a domain becomes its project and hostname. The domain's `account` is a column (kept equal to its
 * project's by a reference to both), and its TXT ownership record is jsonb in the domain schema's
 * encoded form.
 *
 * Tokens are kept per account and name, made once: existing domains get their account's token for
 * their hostname, made here from `node:crypto` (SQL's `random()` is not a secure source), with the
 * record not required, since nobody contested them. Releases keep, per account and hostname, when a
 * verified hostname was let go; claims keep an account's apex, with the recheck lease of domain
 * checks and a partial index for the due ones.
 *
 * A certificate is kept per hostname, the verified domain's: with the hostname no longer unique the
 * reference to it becomes triggers. A certificate is refused for a hostname no domain has (the
 * domains of that name are locked as a reference would, so that a concurrent removal waits), and
 * goes when the verified domain with its hostname does, or the last domain with it.
 */

import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`alter table projects add constraint projects_id_account unique (id, account)`
  yield* sql`alter table custom_domains add column account text`
  yield* sql`
    update custom_domains set account = projects.account
    from projects where projects.id = custom_domains.project_id`
  // The reference to project and account replaces the one to the project alone.
  yield* sql`
    alter table custom_domains
      alter column account set not null,
      drop constraint custom_domains_project_id_fkey,
      add constraint custom_domains_project_account foreign key (project_id, account)
        references projects (id, account) on update cascade on delete cascade`

  yield* sql`
    create table ownership_tokens (
      account text not null,
      name text not null check (name = lower(name) and char_length(name) <= 253),
      token text not null check (token ~ '^[0-9a-f]{32}$'),
      created_at timestamptz not null default now(),
      primary key (account, name)
    )`
  const holders = yield* sql<{ readonly account: string; readonly hostname: string }>`
    select distinct account, hostname from custom_domains`
  if (holders.length > 0) {
    const tokens = holders.map(({ account, hostname }) => ({
      account,
      name: hostname,
      token: randomBytes(16).toString("hex")
    }))
    yield* sql`
      insert into ownership_tokens (account, name, token)
      select account, name, token
      from jsonb_to_recordset(${JSON.stringify(tokens)}::jsonb) as made(account text, name text, token text)`
  }
  yield* sql`alter table custom_domains add column ownership jsonb`
  yield* sql`
    update custom_domains set ownership = jsonb_build_object(
        'type', 'TXT',
        'name', '_petstore-challenge.' || custom_domains.hostname,
        'value', 'petstore-verification=' || ownership_tokens.token,
        'required', false)
    from ownership_tokens
    where ownership_tokens.account = custom_domains.account and ownership_tokens.name = custom_domains.hostname`
  yield* sql`
    alter table custom_domains
      alter column ownership set not null,
      add constraint custom_domains_ownership check (jsonb_typeof(ownership) = 'object')`

  // The certificates' reference needs the hostname's unique index: it goes first.
  yield* sql`alter table certificates drop constraint certificates_hostname_fkey`
  yield* sql`alter table custom_domains drop constraint custom_domains_pkey`
  yield* sql`alter table custom_domains add constraint custom_domains_pkey primary key (project_id, hostname)`
  yield* sql`
    alter table custom_domains add constraint custom_domains_account_hostname unique (account, hostname)`
  yield* sql`create index custom_domains_hostname on custom_domains (hostname)`

  yield* sql`
    create function certificates_need_domain() returns trigger language plpgsql as $$
    begin
      perform 1 from custom_domains where hostname = new.hostname for key share;
      if not found then
        raise exception 'no custom domain has the hostname %', new.hostname
          using errcode = 'foreign_key_violation';
      end if;
      return null;
    end
    $$`
  yield* sql`
    create constraint trigger certificates_need_domain after insert or update on certificates
    for each row execute function certificates_need_domain()`
  yield* sql`
    create function certificates_follow_domain() returns trigger language plpgsql as $$
    begin
      delete from certificates
      where hostname = old.hostname
        and (old.status = 'verified'
             or not exists (select 1 from custom_domains where hostname = old.hostname));
      return null;
    end
    $$`
  yield* sql`
    create trigger custom_domains_remove_certificate after delete on custom_domains
    for each row execute function certificates_follow_domain()`

  yield* sql`
    create table hostname_releases (
      account text not null,
      hostname text not null check (hostname = lower(hostname) and char_length(hostname) <= 253),
      released_at timestamptz not null,
      primary key (account, hostname)
    )`
  yield* sql`create index hostname_releases_hostname on hostname_releases (hostname, released_at)`

  yield* sql`
    create table claims (
      account text not null,
      apex text not null check (apex = lower(apex) and char_length(apex) <= 253),
      status text not null check (status in ('pending', 'verified')),
      txt jsonb not null check (jsonb_typeof(txt) = 'object'),
      verified_at timestamptz null,
      created_at timestamptz not null,
      last_checked_at timestamptz null,
      next_check_at timestamptz null,
      lease_holder text null,
      lease_until timestamptz null,
      position bigint generated always as identity,
      primary key (account, apex),
      check ((status = 'verified') = (verified_at is not null)),
      check ((lease_holder is null) = (lease_until is null))
    )`
  yield* sql`create index claims_apex on claims (apex)`
  yield* sql`create index claims_account on claims (account, position)`
  yield* sql`create index claims_due on claims (next_check_at, position) where next_check_at is not null`
})
