/**
 * Conditional writes and one verified domain a hostname (contract section 4, "Races"). Domains and
 * claims get a `version`, bumped by every write, which a write names as the state it was decided from
 * (`... where version = $expected`): a decision taken from an older state is refused instead of
 * written over a newer one. Storage itself keeps at most one verified domain per hostname across all
 * accounts (a partial unique index); should two be verified already (the race this closes), the one
 * whose verifying check came last keeps the name and the others fail with `ownership_lost`, as the
 * edge served the latest already.
 *
 * A domain's registrable domain (`apex`) is stored and indexed, so that the domains a claim covers
 * are found by equality rather than by a scan of every hostname's suffix. It is worked out by the
 * domain package's Public Suffix List rules, as every new domain's is.
 */

import { DnsName } from "@petstore/domains"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"

const lostProblem = {
  code: "ownership_lost",
  message:
    "Another account's domain with this hostname was verified after this one: the domain is no longer served for this project. If the name is yours, create this domain's TXT record and click Verify."
}

const noCertificate = { status: "none", issuedAt: null, expiresAt: null, problems: [] }

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    alter table custom_domains
      add column version integer not null default 0 check (version >= 0),
      add column apex text null check (apex = lower(apex) and char_length(apex) <= 253)`
  yield* sql`alter table claims add column version integer not null default 0 check (version >= 0)`

  const hostnames = yield* sql<{ readonly hostname: string }>`select distinct hostname from custom_domains`
  if (hostnames.length > 0) {
    const apexes = hostnames.map(({ hostname }) => ({
      hostname,
      apex: Option.getOrElse(DnsName.registrableDomain(hostname), () => hostname)
    }))
    yield* sql`
      update custom_domains set apex = known.apex
      from jsonb_to_recordset(${JSON.stringify(apexes)}::jsonb) as known(hostname text, apex text)
      where custom_domains.hostname = known.hostname`
  }
  yield* sql`alter table custom_domains alter column apex set not null`
  yield* sql`create index custom_domains_apex on custom_domains (apex)`

  yield* sql`
    update custom_domains set status = 'failed',
      verification_next_check_at = null,
      verification_problems = jsonb_build_array(${JSON.stringify(lostProblem)}::jsonb),
      certificate = ${JSON.stringify(noCertificate)}::jsonb,
      issuance = null, issuance_next_attempt_at = null,
      version = version + 1
    where status = 'verified'
      and exists (
        select from custom_domains as later
        where later.hostname = custom_domains.hostname and later.status = 'verified'
          and (coalesce(later.verification_last_checked_at, '-infinity'), later.position)
            > (coalesce(custom_domains.verification_last_checked_at, '-infinity'), custom_domains.position))`
  yield* sql`
    create unique index custom_domains_one_verified on custom_domains (hostname) where status = 'verified'`
})
