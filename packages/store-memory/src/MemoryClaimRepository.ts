/**
 * ClaimRepository in memory: one claim per account and apex, in insertion order, each with its
 * recheck lease, kept in the table the domains are (`MemoryDomainTable`), so that a claim's proof and
 * the domains it takes are stored in one update (`DecidedWritesStore.storeDecided`). Every
 * operation reads and writes in one atomic `Ref` update, so concurrent inserts never store two claims
 * of one apex for an account nor overshoot its limits, concurrent claims never lease one twice, and a write is applied only
 * while the claim is at the version it was decided from.
 */

import type { LimitReached } from "@petstore/kernel"
import { type Claim, ClaimRepository, claimLimitRefusal, writtenClaim } from "@petstore/ownership"
import { Effect, HashMap, Layer, Option, Order, Ref } from "effect"
import {
  claimKeyOf,
  type DomainTable,
  MemoryDomainTable,
  type StoredClaim,
  layer as tableLayer
} from "./MemoryDomainTable.js"

const byPosition: Order.Order<StoredClaim> = Order.mapInput(
  Order.Number,
  (stored: StoredClaim) => stored.position
)

/** Oldest due first; among equally due ones, the first added. */
const dueOrder: Order.Order<StoredClaim> = Order.combine(
  Order.mapInput(Order.Number, (stored: StoredClaim) => stored.claim.nextCheckAt?.getTime() ?? 0),
  byPosition
)

/** Whether a worker may lease the claim at `now`: its recheck is due and no live lease holds it. */
const isDue = (stored: StoredClaim, now: number): boolean =>
  stored.claim.nextCheckAt !== null &&
  stored.claim.nextCheckAt.getTime() <= now &&
  !Option.exists(stored.lease, (lease) => lease.until.getTime() > now)

const heldBy = (stored: StoredClaim, holder: string): boolean =>
  Option.exists(stored.lease, (lease) => lease.holder === holder)

export const make: Effect.Effect<ClaimRepository["Service"], never, MemoryDomainTable> = Effect.map(
  MemoryDomainTable,
  (table) => {
    const select = (keep: (claim: Claim) => boolean) =>
      Effect.map(Ref.get(table), ({ claims }) =>
        [...HashMap.values(claims)]
          .filter((stored) => keep(stored.claim))
          .sort(byPosition)
          .map((stored) => stored.claim)
      )

    /** Writes the stored claim, ending its lease, when `condition` holds for it; true when it did. */
    const replaceIf = (claim: Claim, condition: (stored: StoredClaim) => boolean): Effect.Effect<boolean> =>
      Ref.modify(table, (current): [boolean, DomainTable] => {
        const key = claimKeyOf(claim)
        const stored = HashMap.get(current.claims, key)
        if (Option.isNone(stored) || !condition(stored.value)) return [false, current]
        const replaced: StoredClaim = {
          ...stored.value,
          claim: writtenClaim(claim, stored.value.claim.version),
          lease: Option.none()
        }
        return [true, { ...current, claims: HashMap.set(current.claims, key, replaced) }]
      })

    return ClaimRepository.of({
      insert: (claim, limits) =>
        Effect.flatten(
          Ref.modify(table, (current): [Effect.Effect<boolean, LimitReached>, DomainTable] => {
            const key = claimKeyOf(claim)
            if (HashMap.has(current.claims, key)) return [Effect.succeed(false), current]
            const owned = [...HashMap.values(current.claims)].filter(
              (stored) => stored.claim.account === claim.account
            )
            const refusal = claimLimitRefusal(
              {
                total: owned.length,
                pending: owned.filter((stored) => stored.claim.status === "pending").length
              },
              limits
            )
            if (refusal !== undefined) return [Effect.fail(refusal), current]
            const stored: StoredClaim = { claim, position: current.nextClaimPosition, lease: Option.none() }
            return [
              Effect.succeed(true),
              {
                ...current,
                nextClaimPosition: current.nextClaimPosition + 1,
                claims: HashMap.set(current.claims, key, stored)
              }
            ]
          })
        ),
      findOwned: (account, apex) =>
        Effect.map(Ref.get(table), ({ claims }) =>
          Option.map(HashMap.get(claims, claimKeyOf({ account, apex })), (stored) => stored.claim)
        ),
      listByAccount: (account) => select((claim) => claim.account === account),
      listByApexes: (apexes) => select((claim) => apexes.includes(claim.apex)),
      update: (claim) => replaceIf(claim, (stored) => stored.claim.version === claim.version),
      remove: (account, apex) =>
        Ref.modify(table, (current): [boolean, DomainTable] => {
          const key = claimKeyOf({ account, apex })
          if (!HashMap.has(current.claims, key)) return [false, current]
          return [true, { ...current, claims: HashMap.remove(current.claims, key) }]
        }),
      claimDue: (now, limit, lease) =>
        Ref.modify(table, (current): [ReadonlyArray<Claim>, DomainTable] => {
          const at = now.getTime()
          const leased = [...HashMap.values(current.claims)]
            .filter((stored) => isDue(stored, at))
            .sort(dueOrder)
            .slice(0, Math.max(0, limit))
          const claims = leased.reduce(
            (all, stored) =>
              HashMap.set(all, claimKeyOf(stored.claim), { ...stored, lease: Option.some(lease) }),
            current.claims
          )
          return [leased.map((stored) => stored.claim), { ...current, claims }]
        }),
      completeChecks: (claims, holder) =>
        Effect.map(
          Effect.filter(claims, (claim) => replaceIf(claim, (stored) => heldBy(stored, holder))),
          (stored) => stored.length
        ),
      releaseLease: (account, apex, holder) =>
        Ref.update(table, (current) => ({
          ...current,
          claims: HashMap.modify(current.claims, claimKeyOf({ account, apex }), (stored) =>
            heldBy(stored, holder) ? { ...stored, lease: Option.none() } : stored
          )
        }))
    })
  }
)

/** The repository on a table of its own: for what needs claims alone. `MemoryStore` shares its table. */
export const layer: Layer.Layer<ClaimRepository> = Layer.effect(ClaimRepository, make).pipe(
  Layer.provide(tableLayer)
)
