/**
 * CustomDomainRepository in memory: domains keyed by hostname (across projects, so a hostname is taken
 * once), each with its insertion position and its check lease. Every operation, a claim included,
 * reads and writes in one atomic `Ref` update, so concurrent claims never lease one domain twice.
 */
import {
  type CustomDomain,
  type CustomDomainLease,
  CustomDomainRepository,
  type Hostname,
  HostnameTaken,
  type ProjectId,
  workDueAt
} from "@petstore/custom-domains"
import { Effect, HashMap, Layer, Option, Order, Ref } from "effect"

interface StoredDomain {
  readonly domain: CustomDomain
  /** Insertion order, for listing. */
  readonly position: number
  readonly lease: Option.Option<CustomDomainLease>
}

interface DomainTable {
  readonly nextPosition: number
  readonly domains: HashMap.HashMap<string, StoredDomain>
}

/** Oldest due first; among equally due ones, the first added. */
const dueOrder: Order.Order<StoredDomain> = Order.combine(
  Order.mapInput(Order.Number, (stored: StoredDomain) => workDueAt(stored.domain)?.getTime() ?? 0),
  Order.mapInput(Order.Number, (stored: StoredDomain) => stored.position)
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

export const make: Effect.Effect<CustomDomainRepository["Service"]> = Effect.map(
  Ref.make<DomainTable>({ nextPosition: 0, domains: HashMap.empty() }),
  (table) => {
    /** Replaces the stored domain when `condition` holds for it; true when it did. */
    const replaceIf = (
      domain: CustomDomain,
      condition: (stored: StoredDomain) => boolean,
      endLease: boolean
    ): Effect.Effect<boolean> =>
      Ref.modify(table, (current): [boolean, DomainTable] => {
        const stored = HashMap.get(current.domains, domain.hostname)
        if (Option.isNone(stored) || stored.value.domain.projectId !== domain.projectId)
          return [false, current]
        if (!condition(stored.value)) return [false, current]
        const replaced: StoredDomain = {
          ...stored.value,
          domain,
          lease: endLease ? Option.none() : stored.value.lease
        }
        return [true, { ...current, domains: HashMap.set(current.domains, domain.hostname, replaced) }]
      })

    return CustomDomainRepository.of({
      insert: (domain) =>
        Effect.flatten(
          Ref.modify(table, (current): [Effect.Effect<void, HostnameTaken>, DomainTable] => {
            if (HashMap.has(current.domains, domain.hostname)) {
              return [Effect.fail(new HostnameTaken({ hostname: domain.hostname })), current]
            }
            const stored: StoredDomain = { domain, position: current.nextPosition, lease: Option.none() }
            return [
              Effect.void,
              {
                nextPosition: current.nextPosition + 1,
                domains: HashMap.set(current.domains, domain.hostname, stored)
              }
            ]
          })
        ),
      findByHostname: (hostname: Hostname) =>
        Effect.map(Ref.get(table), ({ domains }) =>
          Option.map(HashMap.get(domains, hostname), (stored) => stored.domain)
        ),
      listByProject: (projectId: ProjectId) =>
        Effect.map(Ref.get(table), ({ domains }) =>
          [...HashMap.values(domains)]
            .filter((stored) => stored.domain.projectId === projectId)
            .sort((a, b) => a.position - b.position)
            .map((stored) => stored.domain)
        ),
      update: (domain) => replaceIf(domain, () => true, true),
      remove: (projectId, hostname) =>
        Ref.modify(table, (current): [boolean, DomainTable] => {
          const stored = HashMap.get(current.domains, hostname)
          if (Option.isNone(stored) || stored.value.domain.projectId !== projectId) return [false, current]
          return [true, { ...current, domains: HashMap.remove(current.domains, hostname) }]
        }),
      claimDue: (now, limit, lease) =>
        Ref.modify(table, (current): [ReadonlyArray<CustomDomain>, DomainTable] => {
          const at = now.getTime()
          const claimed = [...HashMap.values(current.domains)]
            .filter((stored) => isDue(stored, at))
            .sort(dueOrder)
            .slice(0, Math.max(0, limit))
          const domains = claimed.reduce(
            (leased, stored) =>
              HashMap.set(leased, stored.domain.hostname, { ...stored, lease: Option.some(lease) }),
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
      releaseLease: (hostname, holder) =>
        Ref.update(table, (current) => ({
          ...current,
          domains: HashMap.modify(current.domains, hostname, (stored) =>
            heldBy(stored, holder) ? { ...stored, lease: Option.none() } : stored
          )
        })),
      completeChecks: (domains, holder) =>
        Effect.map(
          Effect.filter(domains, (domain) => replaceIf(domain, (stored) => heldBy(stored, holder), true)),
          (stored) => stored.map((domain) => domain.hostname)
        )
    })
  }
)

export const layer: Layer.Layer<CustomDomainRepository> = Layer.effect(CustomDomainRepository, make)
