/**
 * IdempotencyRepository on PostgreSQL. A reservation is one transaction: try to insert the row; if
 * the key exists, lock it (`select … for update`), let the domain's `decideIdempotency` decide, and
 * on `Proceed` overwrite it. Concurrent requests with one key queue on the row lock (or on the
 * primary key), so exactly one of them proceeds.
 */
import {
  decideIdempotency,
  type IdempotencyDecision,
  IdempotencyRepository,
  type IdempotencyScope
} from "@petstore/catalogue"
import { Data, Effect, Layer, Option, Result } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { CorruptRow } from "../internal/CorruptRow.js"
import { storageOperation } from "../internal/storageOperation.js"
import { idempotencyRecordFromRow } from "./IdempotencyRow.js"

/**
 * How often a reservation looks again when the row it collided with has vanished before it could be
 * locked (released by its owner in between). Each retry needs another concurrent release, so a
 * handful is plenty.
 */
const reservationAttempts = 5

class ReservationVanished extends Data.TaggedError("ReservationVanished")<{ readonly attempts: number }> {
  override get message() {
    return `the idempotency row vanished ${this.attempts} times between insert and lock`
  }
}

type ReserveFailure = SqlError.SqlError | CorruptRow | ReservationVanished

export const make: Effect.Effect<IdempotencyRepository["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const lockExisting = (scope: IdempotencyScope) =>
      Effect.flatMap(
        sql`
        select fingerprint, created_at as "createdAt", pet_id as "petId" from idempotency_keys
        where account = ${scope.account} and key = ${scope.key}
        for update`,
        ([row]) =>
          row === undefined
            ? Effect.succeedNone
            : Effect.fromResult(Result.map(idempotencyRecordFromRow(row), Option.some))
      )

    const reserveOnce = (
      scope: IdempotencyScope,
      fingerprint: string,
      now: Date
    ): Effect.Effect<Option.Option<IdempotencyDecision>, ReserveFailure> =>
      Effect.gen(function* () {
        const inserted = yield* sql`
          insert into idempotency_keys (account, key, fingerprint, pet_id, created_at)
          values (${scope.account}, ${scope.key}, ${fingerprint}, null, ${now})
          on conflict (account, key) do nothing
          returning account`
        if (inserted.length > 0) return Option.some<IdempotencyDecision>({ _tag: "Proceed" })
        const existing = yield* lockExisting(scope)
        if (Option.isNone(existing)) return Option.none()
        const decision = decideIdempotency(existing, fingerprint, now.getTime())
        if (decision._tag === "Proceed") {
          yield* sql`
            update idempotency_keys set fingerprint = ${fingerprint}, created_at = ${now}, pet_id = null
            where account = ${scope.account} and key = ${scope.key}`
        }
        return Option.some(decision)
      })

    const reserve = (
      scope: IdempotencyScope,
      fingerprint: string,
      now: Date,
      attemptsLeft: number
    ): Effect.Effect<IdempotencyDecision, ReserveFailure> =>
      Effect.flatMap(reserveOnce(scope, fingerprint, now), (decision) => {
        if (Option.isSome(decision)) return Effect.succeed(decision.value)
        return attemptsLeft > 1
          ? reserve(scope, fingerprint, now, attemptsLeft - 1)
          : Effect.fail(new ReservationVanished({ attempts: reservationAttempts }))
      })

    return IdempotencyRepository.of({
      reserve: (scope, fingerprint, now) =>
        sql
          .withTransaction(reserve(scope, fingerprint, now, reservationAttempts))
          .pipe(storageOperation("IdempotencyRepository.reserve")),
      release: (scope, reservedAt) =>
        sql`
          delete from idempotency_keys
          where account = ${scope.account} and key = ${scope.key} and pet_id is null
            and created_at = ${reservedAt}
          returning 1 as released`.pipe(
          Effect.map((rows) => rows.length > 0),
          storageOperation("IdempotencyRepository.release")
        ),
      // Rows another purge (another replica) is deleting are skipped, not waited for.
      purge: (reservedUpTo, limit) =>
        sql`
          delete from idempotency_keys
          where ctid in (
            select ctid from idempotency_keys
            where created_at <= ${reservedUpTo}
            limit ${limit}
            for update skip locked)
          returning 1`.pipe(
          Effect.map((rows) => rows.length),
          storageOperation("IdempotencyRepository.purge")
        )
    })
  }
)

export const layer: Layer.Layer<IdempotencyRepository, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyRepository,
  make
)
