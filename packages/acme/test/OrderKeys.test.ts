import { describe, expect, it } from "@effect/vitest"
import { Redacted } from "effect"
import { OrderKeys } from "../src/internal/OrderKeys.js"

const hour = 60 * 60 * 1000
const key = (name: string) => Redacted.make(`-----BEGIN PRIVATE KEY----- ${name}`)
const revealed = (found: Redacted.Redacted<string> | undefined) =>
  found === undefined ? undefined : Redacted.value(found)

describe("OrderKeys", () => {
  it("keeps a finalized order's key through the retention, for repeated downloads", () => {
    const keys = new OrderKeys(24 * hour)
    keys.add("https://ca/order/1", key("one"), 0)
    expect(revealed(keys.get("https://ca/order/1", 0))).toContain("one")
    expect(revealed(keys.get("https://ca/order/1", 23 * hour))).toContain("one")
    expect(keys.get("https://ca/order/1", 24 * hour)).toBeUndefined()
    expect(keys.get("https://ca/order/2", 0)).toBeUndefined()
  })

  it("holds only the keys of recent orders, however many were finalized", () => {
    const keys = new OrderKeys(24 * hour)
    // A year of orders, one every ten minutes: about 52,000 keys without a sweep.
    for (let minute = 0; minute < 365 * 24 * 60; minute += 10) {
      keys.add(`https://ca/order/${minute}`, key(String(minute)), minute * 60 * 1000)
    }
    expect(keys.size).toBe(24 * 6)
    const last = (365 * 24 * 60 - 10) * 60 * 1000
    expect(keys.get(`https://ca/order/${365 * 24 * 60 - 10}`, last)).toBeDefined()
    expect(keys.get("https://ca/order/0", last)).toBeUndefined()
  })

  it("forgets an invalid order's key at once", () => {
    const keys = new OrderKeys(24 * hour)
    keys.add("https://ca/order/1", key("one"), 0)
    keys.remove("https://ca/order/1")
    expect(keys.get("https://ca/order/1", 0)).toBeUndefined()
    expect(keys.size).toBe(0)
  })
})
