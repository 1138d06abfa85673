/**
 * Port: the memory of idempotency keys.
 */

import type { StorageError } from "@petstore/kernel"
import type { Effect } from "effect"
import { Context } from "effect"
import type { IdempotencyDecision, IdempotencyScope } from "./Idempotency.js"

export class IdempotencyRepository extends Context.Service<
  IdempotencyRepository,
  {
    /**
     * Atomically reads what is stored under the scope, applies `decideIdempotency`, and when the
     * decision is `Proceed` stores an in-flight reservation with this fingerprint.
     */
    readonly reserve: (
      scope: IdempotencyScope,
      fingerprint: string,
      now: Date
    ) => Effect.Effect<IdempotencyDecision, StorageError>
    /**
     * Drops the unfinished reservation made at `reservedAt`, so that a retry after a failure can
     * proceed. A reservation made since (another request took the key over) is left alone, so a
     * release that arrives late never frees a request that is still running. True when it dropped
     * one: false when there was none (not made, or not committed yet), or it was completed.
     */
    readonly release: (scope: IdempotencyScope, reservedAt: Date) => Effect.Effect<boolean, StorageError>
    /**
     * Forgets at most `limit` keys reserved at or before `reservedUpTo`, completed or not; answers
     * how many it forgot. Repeated until it forgets fewer than `limit`, it forgets them all.
     */
    readonly purge: (reservedUpTo: Date, limit: number) => Effect.Effect<number, StorageError>
  }
>()("@petstore/catalogue/IdempotencyRepository") {}
