/**
 * Where an app serves its metrics, if anywhere: `PETSTORE_METRICS_PORT` (unset: nowhere, so no port is
 * opened that the operator did not ask for; 0: any free port), on `PETSTORE_METRICS_HOST` (127.0.0.1
 * by default). The API's public port never serves them. One definition for both apps; the worker
 * also reads `PETSTORE_WORKER_METRICS_PORT`, the variable's name before the API's metrics had a
 * listener too, when the new name is not set (the API does not: a worker's old setting beside it would
 * open a second listener on the worker's port).
 */
import { ListenPort } from "@petstore/node-listener"
import { MetricsListener } from "@petstore/telemetry"
import { Config, Option } from "effect"

const portVariable = (name: string) => Config.schema(ListenPort, name).pipe(Config.option)

/** The listener `PETSTORE_METRICS_*` choose, `earlierPortVariable` read when the port is not set. */
const metricsListenerConfig = (
  earlierPortVariable?: string
): Config.Config<Option.Option<MetricsListener.MetricsListenerOptions>> =>
  Config.all({
    port: portVariable("PETSTORE_METRICS_PORT"),
    earlierPort:
      earlierPortVariable === undefined
        ? Config.succeed(Option.none<number>())
        : portVariable(earlierPortVariable),
    host: Config.String("PETSTORE_METRICS_HOST").pipe(Config.withDefault(MetricsListener.defaultHost))
  }).pipe(
    Config.map(({ port, earlierPort, host }) =>
      Option.map(
        Option.orElse(port, () => earlierPort),
        (chosen) => ({ host, port: chosen, settings: "PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST" })
      )
    )
  )

/** The API's metrics listener. */
export const MetricsConfig: Config.Config<Option.Option<MetricsListener.MetricsListenerOptions>> =
  metricsListenerConfig()

/** The worker's metrics listener, `PETSTORE_WORKER_METRICS_PORT` read when `PETSTORE_METRICS_PORT` is not set. */
export const WorkerMetricsConfig: Config.Config<Option.Option<MetricsListener.MetricsListenerOptions>> =
  metricsListenerConfig("PETSTORE_WORKER_METRICS_PORT")
