/**
 * What the edge decides for a name (a Host or SNI name), asked at every handshake and request: kept
 * in memory once looked up (`EdgeDecisionCache`, dropped as soon as storage announces a change that
 * concerns it, see `ServingChanges`), so a served name costs no storage query after its first. Names
 * that must be looked up cost the asking client a token of its `UnknownNameBudget`, given back when
 * the name turns out served: a client that makes storage look up too many unknown names is told to
 * wait (`Limited`) instead of the lookup being made. A client whose address is not known (none was
 * given) is not limited.
 */
import { CertificateStore, type StoredCertificate } from "@petstore/certificates"
import { DnsName, Hostname } from "@petstore/domains"
import type { StorageError } from "@petstore/kernel"
import { type EdgeDecision, type EdgeLookups, resolveEdgeFrom, ServingChanges } from "@petstore/serving"
import { Clock, Context, Duration, Effect, Layer, Option, Schema, type Scope } from "effect"
import { EdgeDecisionCache, type Known } from "./EdgeDecisionCache.js"
import { UnknownNameBudget } from "./UnknownNameBudget.js"

export interface EdgeDecisionOptions {
  /** Names kept of each kind, served (or redirected) and refused (default 10,000 each). */
  readonly cacheCapacity?: number
  /** How long a name is kept at most (default 60 seconds), in case a change is never heard of. */
  readonly cacheTimeToLive?: Duration.Input
  /** Lookups of unknown names one client address may cause per window (default 60). */
  readonly unknownNameLimit?: number
  /** The window a client's budget refills over (default 60 seconds). */
  readonly unknownNameWindow?: Duration.Input
}

export type Resolution =
  | {
      readonly _tag: "Decided"
      readonly decision: EdgeDecision
      /** The certificate of a name served or redirected, if it has one. */
      readonly certificate: Option.Option<StoredCertificate>
    }
  /** The client has made storage look up too many unknown names; it may ask again after this. */
  | { readonly _tag: "Limited"; readonly retryAfterSeconds: number }

/** What a lookup within a client's budget gives: its result, or `Limited` without it being made. */
export type Budgeted<A> =
  | { readonly _tag: "Looked"; readonly value: A }
  | { readonly _tag: "Limited"; readonly retryAfterSeconds: number }

export class EdgeDecisions extends Context.Service<
  EdgeDecisions,
  {
    /** The decision for `name`, asked by `client` (its address). */
    readonly resolve: (name: string, client: string | undefined) => Effect.Effect<Resolution, StorageError>
    /**
     * Another lookup of a key the client chose (an ACME token), within the same budget: its token is
     * given back when `found` holds of the result.
     */
    readonly lookUpWithin: <A, E>(
      client: string | undefined,
      lookup: Effect.Effect<A, E>,
      found: (value: A) => boolean
    ) => Effect.Effect<Budgeted<A>, E>
  }
>()("@petstore/edge/EdgeDecisions") {}

/** The stored certificate of `name` (a normalised name); names that cannot be a hostname have none. */
const certificateOf = (name: string) =>
  Option.match(Schema.decodeOption(Hostname)(name), {
    onNone: () => Effect.succeedNone,
    onSome: (hostname) => Effect.flatMap(CertificateStore, (certificates) => certificates.find(hostname))
  })

/** Reads storage for `name`. */
const lookUp = (name: string): Effect.Effect<Known, StorageError, EdgeLookups | CertificateStore> =>
  Effect.gen(function* () {
    const { decision, projectId } = yield* resolveEdgeFrom(name)
    const certificate = decision.action === "none" ? Option.none() : yield* certificateOf(name)
    return { decision, certificate, projectId }
  })

/** Decisions over the stores in context, listening to their changes until the scope closes. */
export const make = (
  options: EdgeDecisionOptions = {}
): Effect.Effect<
  EdgeDecisions["Service"],
  never,
  EdgeLookups | CertificateStore | ServingChanges | Scope.Scope
> =>
  Effect.gen(function* () {
    const context = yield* Effect.context<EdgeLookups | CertificateStore>()
    const clock = yield* Clock.Clock
    const now = () => clock.currentTimeMillisUnsafe()
    const cache = new EdgeDecisionCache(
      options.cacheCapacity ?? 10_000,
      Duration.toMillis(Duration.fromInputUnsafe(options.cacheTimeToLive ?? Duration.seconds(60))),
      now
    )
    const budget = new UnknownNameBudget(
      options.unknownNameLimit ?? 60,
      Duration.toMillis(Duration.fromInputUnsafe(options.unknownNameWindow ?? Duration.seconds(60))),
      now
    )
    yield* Effect.flatMap(ServingChanges, (changes) =>
      changes.subscribe({
        changed: (change) => cache.changed(change),
        hearing: (hearing) => cache.hearing(hearing)
      })
    )

    const lookUpWithin = <A, E>(
      client: string | undefined,
      lookup: Effect.Effect<A, E>,
      found: (value: A) => boolean
    ): Effect.Effect<Budgeted<A>, E> =>
      Effect.suspend((): Effect.Effect<Budgeted<A>, E> => {
        if (client === undefined) return Effect.map(lookup, (value) => ({ _tag: "Looked", value }) as const)
        const retryAfterSeconds = budget.spend(client)
        if (retryAfterSeconds !== undefined)
          return Effect.succeed({ _tag: "Limited", retryAfterSeconds } as const)
        return lookup.pipe(
          // A lookup that failed says nothing of the name: it costs nothing either.
          Effect.onExit((exit) =>
            Effect.sync(() => {
              if (exit._tag === "Failure" || found(exit.value)) budget.refund(client)
            })
          ),
          Effect.map((value) => ({ _tag: "Looked", value }) as const)
        )
      })

    // Suspended: the cache is consulted each time the decision is asked for, not when it is made.
    const resolve = (name: string, client: string | undefined): Effect.Effect<Resolution, StorageError> =>
      Effect.suspend(() => {
        const key = DnsName.fromHost(name)
        const kept = cache.lookup(key)
        if (kept !== undefined) return Effect.succeed(decided(kept))
        const token = cache.beginRead()
        const read = Effect.tap(Effect.provideContext(lookUp(key), context), (known) =>
          Effect.sync(() => cache.keep(token, key, known))
        )
        return Effect.map(
          lookUpWithin(client, read, (known) => known.decision.action !== "none"),
          (budgeted): Resolution => (budgeted._tag === "Limited" ? budgeted : decided(budgeted.value))
        )
      })

    return EdgeDecisions.of({ resolve, lookUpWithin })
  })

const decided = (known: Known): Resolution => ({
  _tag: "Decided",
  decision: known.decision,
  certificate: known.certificate
})

export const layer = (
  options: EdgeDecisionOptions = {}
): Layer.Layer<EdgeDecisions, never, EdgeLookups | CertificateStore | ServingChanges> =>
  Layer.effect(EdgeDecisions, make(options))
