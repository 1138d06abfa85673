/**
 * The rules of what the edge keeps and spends, on a clock the test moves: a lookup that read storage
 * while something changed keeps nothing; nothing is kept or served while changes cannot be heard;
 * entries age out; a project's change drops every name decided from it. A client's budget of
 * unknown-name lookups refills evenly, says how long to wait, gives back tokens of names served, and
 * forgets clients whose budget is full again.
 */
import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { EdgeDecisionCache, type Known } from "../src/EdgeDecisionCache.js"
import { UnknownNameBudget } from "../src/UnknownNameBudget.js"

const served = (projectId: string): Known => ({
  decision: { action: "serve", projectId },
  certificate: Option.none(),
  projectId
})
const refused: Known = { decision: { action: "none" }, certificate: Option.none(), projectId: undefined }

const clock = () => {
  const time = { now: 1_000_000 }
  return { time, now: () => time.now }
}

describe("EdgeDecisionCache", () => {
  it("keeps what a read found only if nothing changed while it read", () => {
    const { now } = clock()
    const cache = new EdgeDecisionCache(10, 60_000, now)
    cache.hearing(true)
    const token = cache.beginRead()
    cache.changed({ _tag: "Hostname", hostname: "other.example.com" })
    cache.keep(token, "docs.example.com", served("p"))
    expect(cache.lookup("docs.example.com")).toBeUndefined()
    cache.keep(cache.beginRead(), "docs.example.com", served("p"))
    expect(cache.lookup("docs.example.com")).toEqual(served("p"))
  })

  it("serves and keeps nothing while changes are not heard, and starts empty when they are", () => {
    const { now } = clock()
    const cache = new EdgeDecisionCache(10, 60_000, now)
    cache.keep(cache.beginRead(), "a.example.com", served("p"))
    expect(cache.size).toEqual({ answered: 0, refused: 0 })
    cache.hearing(true)
    cache.keep(cache.beginRead(), "a.example.com", served("p"))
    const token = cache.beginRead()
    cache.hearing(false)
    expect(cache.lookup("a.example.com")).toBeUndefined()
    cache.hearing(true)
    cache.keep(token, "b.example.com", served("p"))
    expect(cache.size).toEqual({ answered: 0, refused: 0 })
  })

  it("drops an entry past its time to live, and every name of a project that changed", () => {
    const { time, now } = clock()
    const cache = new EdgeDecisionCache(10, 60_000, now)
    cache.hearing(true)
    cache.keep(cache.beginRead(), "a.example.com", served("p"))
    cache.keep(cache.beginRead(), "b.example.com", { ...refused, projectId: "p" })
    cache.keep(cache.beginRead(), "c.example.com", served("q"))
    cache.changed({ _tag: "Project", projectId: "p" })
    expect(cache.lookup("a.example.com")).toBeUndefined()
    expect(cache.lookup("b.example.com")).toBeUndefined()
    expect(cache.lookup("c.example.com")).toEqual(served("q"))
    time.now += 60_000
    expect(cache.lookup("c.example.com")).toBeUndefined()
  })

  it("bounds served and refused names apart, dropping the oldest of each", () => {
    const { now } = clock()
    const cache = new EdgeDecisionCache(2, 60_000, now)
    cache.hearing(true)
    cache.keep(cache.beginRead(), "served.example.com", served("p"))
    for (let n = 0; n < 5; n++) cache.keep(cache.beginRead(), `n${n}.example.com`, refused)
    expect(cache.size).toEqual({ answered: 1, refused: 2 })
    expect(cache.lookup("served.example.com")).toEqual(served("p"))
    expect(cache.lookup("n3.example.com")).toEqual(refused)
    expect(cache.lookup("n2.example.com")).toBeUndefined()
  })
})

describe("UnknownNameBudget", () => {
  it("lets `limit` lookups through, then says how long to wait as it refills evenly", () => {
    const { time, now } = clock()
    const budget = new UnknownNameBudget(3, 60_000, now)
    expect([budget.spend("a"), budget.spend("a"), budget.spend("a")]).toEqual([
      undefined,
      undefined,
      undefined
    ])
    expect(budget.spend("a")).toBe(20)
    expect(budget.spend("b")).toBeUndefined()
    time.now += 15_000
    expect(budget.spend("a")).toBe(5)
    time.now += 5_000
    expect(budget.spend("a")).toBeUndefined()
    expect(budget.spend("a")).toBe(20)
  })

  it("gives a token back for a name served, never above the limit", () => {
    const { now } = clock()
    const budget = new UnknownNameBudget(1, 60_000, now)
    expect(budget.spend("a")).toBeUndefined()
    budget.refund("a")
    budget.refund("a")
    expect(budget.spend("a")).toBeUndefined()
    expect(budget.spend("a")).toBe(60)
  })

  it("forgets clients whose budget is full again (at most once a minute)", () => {
    const { time, now } = clock()
    const budget = new UnknownNameBudget(10, 10_000, now)
    for (let n = 0; n < 100; n++) budget.spend(`client-${n}`)
    expect(budget.size).toBe(100)
    time.now += 60_000
    budget.spend("last")
    expect(budget.size).toBe(1)
  })
})
