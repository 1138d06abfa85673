/**
 * How the rounds of webhook deliveries are shaped from the worker's knobs: the webhooks' own
 * concurrency, and a lease that outlasts two send timeouts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration } from "effect"
import type { CustomDomainCheckLoopOptions } from "../src/CustomDomainCheckLoop.js"
import { deliveryRoundOptions } from "../src/DeliveryLoop.js"

describe("deliveryRoundOptions", () => {
  const knobs: CustomDomainCheckLoopOptions = {
    holder: "w1",
    concurrency: 16,
    batchSize: 100,
    lease: "60 seconds",
    pollInterval: "1 second",
    retryBase: "5 seconds",
    disableAfter: "72 hours",
    deliveriesInFlight: 256,
    sendTimeout: "10 seconds"
  }
  const shaped = (overrides: Partial<CustomDomainCheckLoopOptions>) => {
    const options = deliveryRoundOptions({ ...knobs, ...overrides })
    return { ...options, lease: Duration.toMillis(options.lease) }
  }

  it("keeps the webhooks' own knobs: as many in flight as PETSTORE_WEBHOOK_CONCURRENCY, not the checks'", () => {
    expect(shaped({})).toStrictEqual({
      holder: "w1",
      inFlight: 256,
      lease: 60_000,
      retryBase: "5 seconds",
      disableAfter: "72 hours"
    })
    expect(shaped({ deliveriesInFlight: 3, concurrency: 1, batchSize: 1 }).inFlight).toBe(3)
  })

  it("leases a delivery for two send timeouts at least, whatever shorter lease the domain checks use", () => {
    expect(shaped({ lease: "5 seconds" }).lease).toBe(20_000)
    expect(shaped({ lease: "20 seconds" }).lease).toBe(20_000)
    expect(shaped({ lease: "21 seconds" }).lease).toBe(21_000)
    expect(shaped({ lease: "1 second", sendTimeout: "2 seconds" }).lease).toBe(4_000)
  })
})
