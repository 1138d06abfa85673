/**
 * Liveness answers while the process runs; readiness asks storage, and reports (without failing) a
 * rate-limit store that could not be reached: requests are then let through unlimited.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Health, PetstoreApi, Unavailable } from "@petstore/api"
import { StorageHealth } from "@petstore/domain"
import { Duration, Effect } from "effect"
import { RequestRateLimiter } from "./RequestRateLimiter.js"

/** A readiness probe must answer quickly even when storage hangs. */
export const readinessTimeout = Duration.seconds(2)

export const HealthHandlers = HttpApiBuilder.group(PetstoreApi, "health", (handlers) =>
  handlers
    .handle("liveness", () => Effect.succeed(new Health({ status: "ok" })))
    .handle("readiness", () =>
      Effect.gen(function* () {
        const storage = yield* StorageHealth
        yield* storage.check.pipe(
          Effect.timeoutFail({ duration: readinessTimeout, onTimeout: () => "timed out" as const }),
          Effect.catchAll((error) =>
            Effect.zipRight(
              Effect.logWarning("readiness check failed", error),
              Effect.fail(
                new Unavailable({ code: "unavailable", message: "storage is not reachable", status: 503 })
              )
            )
          )
        )
        const rateLimitStore = (yield* Effect.flatMap(
          RequestRateLimiter,
          (limiter) => limiter.storeReachable
        ))
          ? "ok"
          : "unreachable: requests are not rate limited until it answers"
        return new Health({ status: "ok", checks: { storage: "ok", rateLimits: rateLimitStore } })
      })
    )
)
