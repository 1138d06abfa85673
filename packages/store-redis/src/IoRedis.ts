/**
 * `effect/persistence`'s `Redis` service over an ioredis client. Not `@effect/platform-node`'s
 * `NodeRedis`: node-redis fails the layer when Redis is down at start-up, queues commands while
 * disconnected and gives up reconnecting after a socket timeout, where the rate limiter needs a client
 * that starts without Redis, fails each command at once while Redis is away (so the request is let
 * through, not held) and reconnects for as long as the process runs.
 *
 * This module is loaded only when a Redis store is made (`RedisRateLimiterStore.layer`).
 */
import { Deferred, Effect, Layer, type Scope } from "effect"
import { Redis } from "effect/persistence"
import { Redis as IoRedisClient, type RedisOptions } from "ioredis"

const redisError = (cause: unknown) => new Redis.RedisError({ cause })

/**
 * A command on `client`. The reply's type is the caller's to name (the `Redis` service's contract:
 * Redis replies are untyped on the wire), hence the one cast.
 */
const sendOn =
  (client: IoRedisClient) =>
  <A = unknown>(command: string, ...args: ReadonlyArray<string>): Effect.Effect<A, Redis.RedisError> =>
    Effect.tryPromise({
      try: () => client.call(command, [...args]) as Promise<A>,
      catch: redisError
    })

/** Closes `client` after its pending replies; a client whose Redis is gone is dropped at once. */
const close = (client: IoRedisClient, what: string) =>
  Effect.tryPromise(() => client.quit()).pipe(
    Effect.catch(() =>
      Effect.sync(() => client.disconnect()).pipe(
        Effect.andThen(Effect.logInfo(`${what} was already closed`))
      )
    )
  )

const make = Effect.fnUntraced(function* (options: RedisOptions) {
  const client = yield* Effect.acquireRelease(
    Effect.sync(() => new IoRedisClient(options)),
    (client) => close(client, "the rate-limit Redis connection")
  )
  // ioredis reports every failed (re)connection attempt; one warning per outage is enough, and an
  // `error` event without a listener would be printed to stderr outside the JSON log.
  const runSync = Effect.runSyncWith(yield* Effect.context<never>())
  let reachable = true
  client.on("error", (error: Error) => {
    if (!reachable) return
    reachable = false
    runSync(Effect.logWarning(`the rate-limit Redis is unreachable: ${error.message}`))
  })
  client.on("ready", () => {
    if (reachable) return
    reachable = true
    runSync(Effect.logInfo("the rate-limit Redis is reachable again"))
  })

  /** A client of its own for `reserve` and `subscribe`, connected before it is used. */
  const duplicate = (override: Partial<RedisOptions>) =>
    Effect.tryPromise({
      try: () => {
        const connection = client.duplicate({ ...override, lazyConnect: true })
        connection.on("error", () => undefined)
        return connection.connect().then(
          () => connection,
          (cause: unknown) => {
            connection.disconnect()
            return Promise.reject(cause)
          }
        )
      },
      catch: redisError
    })

  return yield* Redis.make({
    send: sendOn(client),
    // Reserved connections do not reconnect: one that fails leaves the pool.
    connect: Effect.map(duplicate({ retryStrategy: () => null }), (connection) => ({
      send: sendOn(connection),
      close: Effect.sync(() => connection.disconnect())
    })),
    subscribe: (channel, onMessage) =>
      Effect.gen(function* () {
        const ended = yield* Deferred.make<void, Redis.RedisError>()
        const subscriber = yield* Effect.acquireRelease(duplicate({}), (subscriber) =>
          Effect.sync(() => subscriber.disconnect())
        )
        subscriber.on("message", (from: string, message: string) => onMessage({ channel: from, message }))
        subscriber.on("end", () =>
          runSync(Deferred.fail(ended, redisError(new Error(`the subscription to ${channel} ended`))))
        )
        yield* Effect.tryPromise({ try: () => subscriber.subscribe(channel), catch: redisError })
        return Deferred.await(ended)
      }) satisfies Effect.Effect<Effect.Effect<void, Redis.RedisError>, Redis.RedisError, Scope.Scope>
  })
})

/** The `Redis` service on a client made from `options`, closed with the layer. */
export const layer = (options: RedisOptions): Layer.Layer<Redis.Redis> =>
  Layer.effect(Redis.Redis, make(options))
