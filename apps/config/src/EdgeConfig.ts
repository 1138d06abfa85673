/**
 * The serving edge's listeners for custom domains (0: any free port, as the tests use), how many
 * names it keeps decided in memory and for how long at most, and how many lookups of unknown names
 * one client address may cause per window. Read by the API, which runs the edge.
 */
import { ListenPort } from "@petstore/node-listener"
import { Config, Duration } from "effect"
import { Count, Period } from "./SettingRanges.js"

export const EdgeConfig = Config.all({
  httpPort: Config.schema(ListenPort, "PETSTORE_EDGE_HTTP_PORT").pipe(Config.withDefault(8080)),
  httpsPort: Config.schema(ListenPort, "PETSTORE_EDGE_HTTPS_PORT").pipe(Config.withDefault(8443)),
  cacheCapacity: Config.schema(Count, "PETSTORE_EDGE_CACHE_SIZE").pipe(Config.withDefault(10_000)),
  cacheTimeToLive: Config.schema(Period, "PETSTORE_EDGE_CACHE_TTL").pipe(
    Config.withDefault(Duration.seconds(60))
  ),
  unknownNameLimit: Config.schema(Count, "PETSTORE_EDGE_UNKNOWN_NAME_LIMIT").pipe(Config.withDefault(60)),
  unknownNameWindow: Config.schema(Period, "PETSTORE_EDGE_UNKNOWN_NAME_WINDOW").pipe(
    Config.withDefault(Duration.seconds(60))
  )
})
