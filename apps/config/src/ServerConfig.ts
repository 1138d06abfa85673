/**
 * The API's HTTP listener: `PORT` and `HOST`, each request's deadline, and how long a stop waits for
 * the requests in flight.
 */
import { maxRequestDeadline } from "@petstore/catalogue"
import { ListenPort } from "@petstore/node-listener"
import { Config, Duration, Schema } from "effect"

const RequestDeadline = Schema.DurationFromString.check(
  Schema.makeFilter(
    (deadline: Duration.Duration) =>
      Duration.isGreaterThan(deadline, Duration.zero) &&
      Duration.isLessThanOrEqualTo(deadline, maxRequestDeadline),
    {
      message: `must be more than 0 and at most ${Duration.format(maxRequestDeadline)} (half the Idempotency-Key in-flight lease)`
    }
  )
)

export const ServerConfig = Config.all({
  port: Config.schema(ListenPort, "PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  requestTimeout: Config.schema(RequestDeadline, "PETSTORE_REQUEST_TIMEOUT").pipe(
    Config.withDefault(Duration.seconds(10))
  ),
  shutdownGrace: Config.Duration("PETSTORE_SHUTDOWN_GRACE").pipe(Config.withDefault(Duration.seconds(10)))
})
