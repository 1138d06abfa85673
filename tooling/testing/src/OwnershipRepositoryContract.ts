/**
 * The behaviour every OwnershipRepository must have, as a test suite run against each adapter: a
 * token per account and name, made once (concurrent callers too) and unguessable in shape (32
 * lower-case hex digits, different for every pair), and the latest release per account and
 * hostname. Accounts and hostnames are fresh per test, so suites tolerate each other's rows.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { type HostnameRelease, OwnershipRepository } from "@petstore/ownership"
import { Array as Arr, Effect, type Layer } from "effect"
import { freshAccount, freshHostname, later, t0 } from "./ContractFixtures.js"

const day = 24 * 60 * 60 * 1_000

const byAccount = (a: HostnameRelease, b: HostnameRelease) => a.account.localeCompare(b.account)

export const ownershipRepositoryTests = (it: Vitest.MethodsNonLive<OwnershipRepository>): void => {
  it.effect(
    "tokenFor: 32 lower-case hex digits, the same for a pair every time, another for another pair",
    () =>
      Effect.gen(function* () {
        const ownership = yield* OwnershipRepository
        const [account, other] = [yield* freshAccount, yield* freshAccount]
        const [hostname, apex] = [yield* freshHostname(), yield* freshHostname("apex")]
        const token = yield* ownership.tokenFor(account, hostname)
        expect(token).toMatch(/^[0-9a-f]{32}$/)
        expect(yield* ownership.tokenFor(account, hostname)).toBe(token)
        const others = [
          yield* ownership.tokenFor(other, hostname),
          yield* ownership.tokenFor(account, apex),
          yield* ownership.tokenFor(other, apex)
        ]
        for (const made of others) expect(made).toMatch(/^[0-9a-f]{32}$/)
        expect(new Set([token, ...others]).size).toBe(4)
        // Each is kept as made.
        expect(yield* ownership.tokenFor(other, hostname)).toBe(others[0])
        expect(yield* ownership.tokenFor(account, apex)).toBe(others[1])
      })
  )

  it.effect("tokenFor: 20 concurrent calls for one pair get one token", () =>
    Effect.gen(function* () {
      const ownership = yield* OwnershipRepository
      const [account, hostname] = [yield* freshAccount, yield* freshHostname()]
      const tokens = yield* Effect.forEach(Arr.range(1, 20), () => ownership.tokenFor(account, hostname), {
        concurrency: "unbounded"
      })
      expect(tokens).toHaveLength(20)
      expect(new Set(tokens).size).toBe(1)
      expect(yield* ownership.tokenFor(account, hostname)).toBe(tokens[0])
    })
  )

  it.effect("tokenFor: many pairs at once, each its own token", () =>
    Effect.gen(function* () {
      const ownership = yield* OwnershipRepository
      const account = yield* freshAccount
      const hostnames = yield* Effect.forEach(Arr.range(1, 50), () => freshHostname())
      const tokens = yield* Effect.forEach(hostnames, (hostname) => ownership.tokenFor(account, hostname), {
        concurrency: "unbounded"
      })
      expect(new Set(tokens).size).toBe(50)
    })
  )

  it.effect(
    "releasesSince: every account's latest release of each hostname asked for after the instant",
    () =>
      Effect.gen(function* () {
        const ownership = yield* OwnershipRepository
        const [a, b, c] = [yield* freshAccount, yield* freshAccount, yield* freshAccount]
        const [hostname, other] = [yield* freshHostname(), yield* freshHostname()]
        expect(yield* ownership.releasesSince([hostname], t0)).toEqual([])

        yield* ownership.recordRelease(a, hostname, later(t0, 2 * day))
        yield* ownership.recordRelease(b, hostname, later(t0, day))
        yield* ownership.recordRelease(c, other, later(t0, 3 * day))
        expect([...(yield* ownership.releasesSince([hostname], t0))].sort(byAccount)).toEqual(
          [
            { account: a, hostname, releasedAt: later(t0, 2 * day) },
            { account: b, hostname, releasedAt: later(t0, day) }
          ].sort(byAccount)
        )
        // After the instant, strictly.
        expect(yield* ownership.releasesSince([hostname], later(t0, day))).toEqual([
          { account: a, hostname, releasedAt: later(t0, 2 * day) }
        ])
        expect(yield* ownership.releasesSince([hostname], later(t0, 2 * day))).toEqual([])
        expect(yield* ownership.releasesSince([other], t0)).toEqual([
          { account: c, hostname: other, releasedAt: later(t0, 3 * day) }
        ])

        // The latest release per account is kept, whatever the order they are recorded in.
        yield* ownership.recordRelease(b, hostname, later(t0, 5 * day))
        yield* ownership.recordRelease(b, hostname, later(t0, 4 * day))
        expect(yield* ownership.releasesSince([hostname], later(t0, 2 * day))).toEqual([
          { account: b, hostname, releasedAt: later(t0, 5 * day) }
        ])
        expect(yield* ownership.releasesSince([hostname], t0)).toHaveLength(2)
        // Several hostnames at once; none asked, none answered.
        expect(
          [...(yield* ownership.releasesSince([other, hostname], later(t0, 2 * day)))].sort(byAccount)
        ).toEqual(
          [
            { account: b, hostname, releasedAt: later(t0, 5 * day) },
            { account: c, hostname: other, releasedAt: later(t0, 3 * day) }
          ].sort(byAccount)
        )
        expect(yield* ownership.releasesSince([], t0)).toEqual([])
      })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const ownershipRepositoryContract = <E>(
  name: string,
  store: Layer.Layer<OwnershipRepository, E>
): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("OwnershipRepository", () => ownershipRepositoryTests(it))
  )
