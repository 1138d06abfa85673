/**
 * CustomDomainRepository in memory: domains keyed by project and hostname, each with its insertion
 * position and its check lease. A hostname is in at most one project per account, but several
 * accounts may hold it, at most one of them verified, and a project at most its limit of domains
 * (counted in the insert's own update). Every operation, a claim included, reads and
 * writes in one atomic `Ref` update, so concurrent inserts never give one account a hostname twice,
 * concurrent claims never lease one domain twice, and a write is applied only while each domain (and
 * claim) it writes is at the version it was decided from and no second domain of a hostname would be
 * verified; every write appends the events of its change in that same update (see
 * `MemoryDomainTable`), at the time the Clock tells.
 */
import {
  type CustomDomain,
  type CustomDomainKey,
  CustomDomainRepository,
  DnsName,
  domainLimitRefusal,
  type Hostname,
  HostnameTaken,
  isRivalOf,
  workDueAt
} from "@petstore/domains"
import type { DomainEventRepository } from "@petstore/events"
import type { LimitReached } from "@petstore/kernel"
import { type DecidedWrites, DecidedWritesStore, writtenClaim, writtenDomain } from "@petstore/ownership"
import type { ProjectId } from "@petstore/projects"
import { Clock, Context, Effect, HashMap, Layer, Option, Order, Ref } from "effect"
import * as MemoryDomainEventRepository from "./MemoryDomainEventRepository.js"
import {
  claimKeyOf,
  type DomainTable,
  keyOf,
  MemoryDomainTable,
  type StoredDomain,
  layer as tableLayer,
  withEventsOf
} from "./MemoryDomainTable.js"

const byPosition: Order.Order<StoredDomain> = Order.mapInput(
  Order.Number,
  (stored: StoredDomain) => stored.position
)

/** Oldest due first; among equally due ones, the first added. */
const dueOrder: Order.Order<StoredDomain> = Order.combine(
  Order.mapInput(Order.Number, (stored: StoredDomain) => workDueAt(stored.domain)?.getTime() ?? 0),
  byPosition
)

/** The one verified last first: the time of the check that verified it, then the latest added. */
const lastVerifiedFirst: Order.Order<StoredDomain> = Order.flip(
  Order.combine(
    Order.mapInput(
      Order.Number,
      (stored: StoredDomain) =>
        stored.domain.verification.lastCheckedAt?.getTime() ?? Number.NEGATIVE_INFINITY
    ),
    byPosition
  )
)

/** Whether the domain has work due at `now`, leased or not (what the queue depth counts). */
const hasWorkDue = (stored: StoredDomain, now: number): boolean => {
  const dueAt = workDueAt(stored.domain)
  return dueAt !== null && dueAt.getTime() <= now
}

/** Whether a worker may claim the domain at `now`: work due, and no live lease on it. */
const isDue = (stored: StoredDomain, now: number): boolean =>
  hasWorkDue(stored, now) && !Option.exists(stored.lease, (lease) => lease.until.getTime() > now)

const heldBy = (stored: StoredDomain, holder: string): boolean =>
  Option.exists(stored.lease, (lease) => lease.holder === holder)

/** Whether another domain than `domain` with its hostname is verified in `table`. */
const hasOtherVerified = (table: DomainTable, domain: CustomDomain): boolean => {
  const key = keyOf(domain)
  for (const [otherKey, stored] of HashMap.entries(table.domains)) {
    if (
      otherKey !== key &&
      stored.domain.hostname === domain.hostname &&
      stored.domain.status === "verified"
    ) {
      return true
    }
  }
  return false
}

/** When a write happens: its events occurred then. */
const currentTime: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

/** The domain repository and the store of decided writes, on one table (one atomic update a write). */
export interface MemoryDomainStores {
  readonly domains: CustomDomainRepository["Service"]
  readonly decided: DecidedWritesStore["Service"]
}

export const make: Effect.Effect<MemoryDomainStores, never, MemoryDomainTable> = Effect.gen(function* () {
  const table = yield* MemoryDomainTable
  /** The stored domains that `keep` accepts, in insertion order (or `order`). */
  const select = (keep: (domain: CustomDomain) => boolean, order: Order.Order<StoredDomain> = byPosition) =>
    Effect.map(Ref.get(table), ({ domains }) =>
      [...HashMap.values(domains)].filter((stored) => keep(stored.domain)).sort(order)
    )

  /**
   * `current` with `domain` written over the stored one (its lease ended), when `condition` holds
   * for the stored one and no other domain of its hostname would be verified; none otherwise.
   */
  const writtenOver = (
    current: DomainTable,
    domain: CustomDomain,
    condition: (stored: StoredDomain) => boolean,
    occurredAt: Date
  ): Option.Option<DomainTable> => {
    const key = keyOf(domain)
    const stored = HashMap.get(current.domains, key)
    if (Option.isNone(stored) || !condition(stored.value)) return Option.none()
    if (domain.status === "verified" && hasOtherVerified(current, domain)) return Option.none()
    const written = writtenDomain(domain, stored.value.domain.version)
    const replaced: StoredDomain = { ...stored.value, domain: written, lease: Option.none() }
    const changed = { ...current, domains: HashMap.set(current.domains, key, replaced) }
    return Option.some(withEventsOf(changed, stored.value.domain, written, occurredAt))
  }

  /** Writes the stored domain when `condition` holds for it (see `writtenOver`); true when it did. */
  const replaceIf = (
    domain: CustomDomain,
    condition: (stored: StoredDomain) => boolean,
    occurredAt: Date
  ): Effect.Effect<boolean> =>
    Ref.modify(table, (current): [boolean, DomainTable] =>
      Option.match(writtenOver(current, domain, condition, occurredAt), {
        onNone: () => [false, current],
        onSome: (changed) => [true, changed]
      })
    )

  /** `current` with every write of `writes` applied, each at the version it carries; none if one is not. */
  const decidedOver = (
    current: DomainTable,
    writes: DecidedWrites,
    occurredAt: Date
  ): Option.Option<DomainTable> => {
    const claimsAsDecided = writes.claims.every((claim) =>
      Option.exists(
        HashMap.get(current.claims, claimKeyOf(claim)),
        (stored) => stored.claim.version === claim.version
      )
    )
    if (!claimsAsDecided) return Option.none()
    const claims = writes.claims.reduce(
      (all, claim) =>
        HashMap.modify(all, claimKeyOf(claim), (stored) => ({
          ...stored,
          claim: writtenClaim(claim),
          lease: Option.none()
        })),
      current.claims
    )
    // Those that stop being verified first: the verified one must not meet its former holder.
    const ordered = [...writes.domains].sort(
      (a, b) => Number(a.status === "verified") - Number(b.status === "verified")
    )
    return ordered.reduce(
      (table: Option.Option<DomainTable>, domain) =>
        Option.flatMap(table, (changed) =>
          writtenOver(changed, domain, (stored) => stored.domain.version === domain.version, occurredAt)
        ),
      Option.some<DomainTable>({ ...current, claims })
    )
  }

  const domains = CustomDomainRepository.of({
    insert: (domain, limits) =>
      Effect.flatMap(currentTime, (occurredAt) =>
        Effect.flatten(
          Ref.modify(table, (current): [Effect.Effect<void, HostnameTaken | LimitReached>, DomainTable] => {
            const key = keyOf(domain)
            const stored = [...HashMap.values(current.domains)]
            const taken =
              HashMap.has(current.domains, key) ||
              stored.some(
                (other) =>
                  other.domain.hostname === domain.hostname && other.domain.account === domain.account
              )
            if (taken) return [Effect.fail(new HostnameTaken({ hostname: domain.hostname })), current]
            const refusal = domainLimitRefusal(
              stored.filter((other) => other.domain.projectId === domain.projectId).length,
              limits
            )
            if (refusal !== undefined) return [Effect.fail(refusal), current]
            const added = {
              ...current,
              nextPosition: current.nextPosition + 1,
              domains: HashMap.set(current.domains, key, {
                domain,
                position: current.nextPosition,
                lease: Option.none()
              })
            }
            return [Effect.void, withEventsOf(added, undefined, domain, occurredAt)]
          })
        )
      ),
    findInProject: (projectId: ProjectId, hostname: Hostname) =>
      Effect.map(Ref.get(table), ({ domains }) =>
        Option.map(HashMap.get(domains, keyOf({ projectId, hostname })), (stored) => stored.domain)
      ),
    findVerified: (hostname) =>
      Effect.map(
        select((domain) => domain.hostname === hostname && domain.status === "verified", lastVerifiedFirst),
        (found) => Option.fromNullishOr(found[0]?.domain)
      ),
    listRivals: (holds) =>
      Effect.map(
        select((domain) => holds.some((hold) => isRivalOf(hold)(domain))),
        (found) => found.map((stored) => stored.domain)
      ),
    listAtOrUnder: (apex) =>
      Effect.map(
        select((domain) => DnsName.isAtOrUnder(domain.hostname, apex)),
        (found) => found.map((stored) => stored.domain)
      ),
    listByProject: (projectId) =>
      Effect.map(
        select((domain) => domain.projectId === projectId),
        (found) => found.map((stored) => stored.domain)
      ),
    update: (domain) =>
      Effect.flatMap(currentTime, (occurredAt) =>
        replaceIf(domain, (stored) => stored.domain.version === domain.version, occurredAt)
      ),
    remove: (projectId, hostname) =>
      Effect.flatMap(currentTime, (occurredAt) =>
        Ref.modify(table, (current): [Option.Option<CustomDomain>, DomainTable] => {
          const key = keyOf({ projectId, hostname })
          const stored = HashMap.get(current.domains, key)
          if (Option.isNone(stored)) return [Option.none(), current]
          const removed = { ...current, domains: HashMap.remove(current.domains, key) }
          return [
            Option.some(stored.value.domain),
            withEventsOf(removed, stored.value.domain, undefined, occurredAt)
          ]
        })
      ),
    claimDue: (now, limit, lease) =>
      Ref.modify(table, (current): [ReadonlyArray<CustomDomain>, DomainTable] => {
        const at = now.getTime()
        const claimed = [...HashMap.values(current.domains)]
          .filter((stored) => isDue(stored, at))
          .sort(dueOrder)
          .slice(0, Math.max(0, limit))
        const domains = claimed.reduce(
          (leased, stored) =>
            HashMap.set(leased, keyOf(stored.domain), { ...stored, lease: Option.some(lease) }),
          current.domains
        )
        return [claimed.map((stored) => stored.domain), { ...current, domains }]
      }),
    countDue: (now) =>
      Effect.map(
        Ref.get(table),
        (current) =>
          [...HashMap.values(current.domains)].filter((stored) => hasWorkDue(stored, now.getTime())).length
      ),
    releaseLease: (domain, holder) =>
      Ref.update(table, (current) => ({
        ...current,
        domains: HashMap.modify(current.domains, keyOf(domain), (stored) =>
          heldBy(stored, holder) ? { ...stored, lease: Option.none() } : stored
        )
      })),
    // The events come from the stored domain, which is the claimed one while the lease holds.
    completeChecks: (work, holder) =>
      Effect.map(
        Effect.flatMap(currentTime, (occurredAt) =>
          Effect.filter(
            work.map(({ result }) => result),
            (domain) => replaceIf(domain, (stored) => heldBy(stored, holder), occurredAt)
          )
        ),
        (stored) =>
          stored.map(
            (domain): CustomDomainKey => ({ projectId: domain.projectId, hostname: domain.hostname })
          )
      )
  })
  const decided = DecidedWritesStore.of({
    storeDecided: (writes) =>
      Effect.flatMap(currentTime, (occurredAt) =>
        Ref.modify(table, (current): [boolean, DomainTable] =>
          Option.match(decidedOver(current, writes, occurredAt), {
            onNone: () => [false, current],
            onSome: (changed) => [true, changed]
          })
        )
      )
  })
  return { domains, decided }
})

/** Both stores of `make`, on the `MemoryDomainTable` given. */
export const storesLayer: Layer.Layer<CustomDomainRepository | DecidedWritesStore, never, MemoryDomainTable> =
  Layer.effectContext(
    Effect.map(make, ({ decided, domains }) =>
      Context.make(CustomDomainRepository, domains).pipe(Context.add(DecidedWritesStore, decided))
    )
  )

/**
 * The repository with the events of its changes, on a table of their own: for what needs domains
 * alone. `MemoryStore` builds `make` on the table it shares.
 */
export const layer: Layer.Layer<CustomDomainRepository | DecidedWritesStore | DomainEventRepository> =
  Layer.merge(storesLayer, MemoryDomainEventRepository.layer).pipe(Layer.provide(tableLayer))
