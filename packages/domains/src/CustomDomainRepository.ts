/**
 * Port: where custom domains are kept. A hostname is in at most one project per account (the store
 * enforces it); several accounts may have it, and ownership decides which one is verified (see
 * `Ownership`): at most one is, the one the edge serves, and the store itself refuses a second.
 * Checks of due domains are leased, so that several workers share the work without checking one
 * domain twice at once, and a dead worker's leases expire.
 *
 * Every write of a stored domain is conditional on the state it was decided from (its `version`):
 * a write whose domain changed meanwhile is refused whole, so its caller decides again from the
 * state that won instead of writing over it.
 */

import type { AccountName, Lease, LimitReached, LimitValues, StorageError } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { CustomDomain, CustomDomainKey } from "./CustomDomain.js"
import type { HostnameTaken } from "./Errors.js"
import type { Hostname } from "./Hostname.js"

/** An account's hold on a hostname: its domain with it, or the one it adds. */
export interface HostnameHold {
  readonly account: AccountName
  readonly hostname: Hostname
}

/** Whether `domain` rivals `hold`: another account's domain with the hold's hostname. */
export const isRivalOf =
  (hold: HostnameHold) =>
  (domain: Pick<CustomDomain, "account" | "hostname">): boolean =>
    domain.hostname === hold.hostname && domain.account !== hold.account

/** Leased work done on a domain: the domain as it was claimed, and as the work left it. */
export interface LeasedWork {
  readonly claimed: CustomDomain
  readonly result: CustomDomain
}

export class CustomDomainRepository extends Context.Service<
  CustomDomainRepository,
  {
    /**
     * Fails with `HostnameTaken` when another project of the same account has this hostname, and with
     * `LimitReached` when its project has `limits.domainsPerProject` domains already (counted and
     * inserted in one step: concurrent inserts at the limit never overshoot it).
     */
    readonly insert: (
      domain: CustomDomain,
      limits: Pick<LimitValues, "domainsPerProject">
    ) => Effect.Effect<void, HostnameTaken | LimitReached | StorageError>
    readonly findInProject: (
      projectId: ProjectId,
      hostname: Hostname
    ) => Effect.Effect<Option.Option<CustomDomain>, StorageError>
    /** The verified domain with this hostname, if any (the one the edge serves). */
    readonly findVerified: (hostname: Hostname) => Effect.Effect<Option.Option<CustomDomain>, StorageError>
    /**
     * The rivals of each hold: the domains with its hostname of other accounts than its own, oldest
     * first; one read for a whole worker round's ownership facts (a round's own domains are not read
     * again).
     */
    readonly listRivals: (
      holds: ReadonlyArray<HostnameHold>
    ) => Effect.Effect<ReadonlyArray<CustomDomain>, StorageError>
    /** Every account's domains at or under `apex` (the names a claim of it covers). */
    readonly listAtOrUnder: (apex: Hostname) => Effect.Effect<ReadonlyArray<CustomDomain>, StorageError>
    /** A project's domains, in the order they were added. */
    readonly listByProject: (projectId: ProjectId) => Effect.Effect<ReadonlyArray<CustomDomain>, StorageError>
    /**
     * Replaces the stored domain (same hostname and project) while it is still at `domain.version`;
     * false when it is not (another write came first, or it is gone). It ends any lease, so a
     * worker's check that started from the older state cannot overwrite this one.
     */
    readonly update: (domain: CustomDomain) => Effect.Effect<boolean, StorageError>
    /** The domain removed from that project, as it was; none when there was no such domain. */
    readonly remove: (
      projectId: ProjectId,
      hostname: Hostname
    ) => Effect.Effect<Option.Option<CustomDomain>, StorageError>
    /**
     * Leases up to `limit` domains whose `nextCheckAt` has passed at `now` and that no live lease
     * holds, oldest due first, to `lease.holder` until `lease.until`.
     */
    readonly claimDue: (
      now: Date,
      limit: number,
      lease: Lease
    ) => Effect.Effect<ReadonlyArray<CustomDomain>, StorageError>
    /** How many domains have work due at `now`, whether or not a worker holds them (the queue depth). */
    readonly countDue: (now: Date) => Effect.Effect<number, StorageError>
    /** Gives back a lease, so the domain can be claimed again at once (graceful shutdown). */
    readonly releaseLease: (domain: CustomDomainKey, holder: string) => Effect.Effect<void, StorageError>
    /**
     * Stores the results of leased work and ends their leases, each only if `holder` still holds
     * it (and, for a verified result, no other domain of its hostname is verified), with the events
     * of each change from `claimed` to `result`; the keys stored. A domain missing
     * from them lost its lease (expired and taken over, or ended by another write) or was removed.
     * While the lease holds no other write has touched the domain (every other write ends it), so
     * `claimed` is what is stored, and a store need not read it again.
     */
    readonly completeChecks: (
      work: ReadonlyArray<LeasedWork>,
      holder: string
    ) => Effect.Effect<ReadonlyArray<CustomDomainKey>, StorageError>
  }
>()("@petstore/domains/CustomDomainRepository") {}
