/**
 * The one lease implementation's statements as PostgreSQL receives them: identifiers quoted, every
 * value a bound parameter (what they do is the repositories' contracts: claims, domains, deliveries).
 */
import { makeCompiler } from "@effect/sql-pg/PgClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Statement from "effect/sql/Statement"
import { claimDueRequest, leasesOf } from "../src/internal/Leases.js"

const sql = Statement.make(Effect.die("only compiled here"), makeCompiler(), [], undefined)
const leases = leasesOf(sql, {
  table: "claims",
  key: ["account", "apex"],
  holder: "lease_holder",
  until: "lease_until"
})
const hostile = "x'); drop table claims; --"
const now = new Date("2026-03-01T12:00:00Z")
const until = new Date("2026-03-01T12:05:00Z")
const squashed = (text: string) => text.replace(/\s+/g, " ").trim()

describe("Leases", () => {
  it("claims the due, free rows in one update, skipping locked ones, every value bound (the limit whole)", () => {
    const [text, params] = leases
      .claimDue(claimDueRequest(now, 7.5, { holder: hostile, until }), {
        due: sql`next_check_at <= ${now}`,
        order: sql`next_check_at, position`,
        returning: sql`account, apex`
      })
      .compile()
    expect(squashed(text)).toBe(
      'update "claims" set "lease_holder" = $1, "lease_until" = $2 where ("account","apex") in ( ' +
        'select "account","apex" from "claims" where next_check_at <= $3 ' +
        'and ("lease_until" is null or "lease_until" <= $4) order by next_check_at, position limit $5 ' +
        "for update skip locked) returning account, apex"
    )
    expect(params).toEqual([hostile, until, now, now, 7])
  })

  it("gives a lease back only where its holder holds it", () => {
    const [text, params] = leases.release({ account: "acct", apex: hostile }, "worker-1").compile()
    expect(squashed(text)).toBe(
      'update "claims" set "lease_holder" = null, "lease_until" = null ' +
        'where ("account" = $1 AND "apex" = $2) and "lease_holder" = $3'
    )
    expect(params).toEqual(["acct", hostile, "worker-1"])
  })

  it("stores while the lease holds, ends it on every write, or only where its holder holds it", () => {
    const [text, params] =
      sql`update claims as stored set ${leases.ended} where ${leases.heldBy("stored", hostile)}
      or ${leases.isFree(now, "stored")}`.compile()
    expect(squashed(text)).toBe(
      'update claims as stored set "lease_holder" = null, "lease_until" = null where "stored"."lease_holder" = $1 ' +
        'or ("stored"."lease_until" is null or "stored"."lease_until" <= $2)'
    )
    expect(params).toEqual([hostile, now])
    const [ending, holders] = leases.endedIfHeldBy("stored", "worker-1").compile()
    expect(squashed(ending)).toBe(
      '"lease_holder" = case when "stored"."lease_holder" = $1 then null else "stored"."lease_holder" end, ' +
        '"lease_until" = case when "stored"."lease_holder" = $2 then null else "stored"."lease_until" end'
    )
    expect(holders).toEqual(["worker-1", "worker-1"])
  })
})
