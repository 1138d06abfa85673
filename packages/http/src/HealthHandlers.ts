/**
 * Liveness answers while the process runs; readiness asks storage, and reports (without failing) a
 * rate-limit store that could not be reached: requests are then let through unlimited.
 */
import { apiError, Health, PetstoreApi, Unavailable } from "@petstore/api"
import { StorageHealth } from "@petstore/kernel"
import { Duration, Effect } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { RequestRateLimiter } from "./RequestRateLimiter.js"

/** A readiness probe must answer quickly even when storage hangs. */
export const readinessTimeout = Duration.seconds(2)

const alive = new Health({ status: "ok" })

const unreachableStorage = apiError(Unavailable, "unavailable", "storage is not reachable")

export const HealthHandlers = HttpApiBuilder.group(PetstoreApi, "health", (handlers) =>
  Effect.map(RequestRateLimiter, (limiter) =>
    handlers
      .handle("liveness", () => Effect.succeed(alive))
      .handle("readiness", () =>
        Effect.gen(function* () {
          const storage = yield* StorageHealth
          yield* storage.check.pipe(
            Effect.timeout(readinessTimeout),
            Effect.catch((error) =>
              Effect.andThen(
                Effect.logWarning("readiness check failed", error),
                Effect.fail(unreachableStorage)
              )
            )
          )
          const rateLimitStore = (yield* limiter.storeReachable)
            ? "ok"
            : "unreachable: requests are not rate limited until it answers"
          return new Health({ status: "ok", checks: { storage: "ok", rateLimits: rateLimitStore } })
        })
      )
  )
)
