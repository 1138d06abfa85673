/**
 * Where the worker serves its metrics, if anywhere: `PETSTORE_METRICS_PORT` (unset: nowhere, so no
 * port is opened that the operator did not ask for; 0: any free port), on `PETSTORE_METRICS_HOST`
 * (127.0.0.1 by default). `PETSTORE_WORKER_METRICS_PORT`, the variable's name before the API's
 * metrics had a listener too, is read when the new name is not set.
 */
import { ListenPort } from "@petstore/node-listener"
import { MetricsListener } from "@petstore/telemetry"
import { Config, Option } from "effect"

const portVariable = (name: string) => Config.schema(ListenPort, name).pipe(Config.option)

export const MetricsConfig: Config.Config<Option.Option<MetricsListener.MetricsListenerOptions>> = Config.all(
  {
    port: portVariable("PETSTORE_METRICS_PORT"),
    legacyPort: portVariable("PETSTORE_WORKER_METRICS_PORT"),
    host: Config.String("PETSTORE_METRICS_HOST").pipe(Config.withDefault(MetricsListener.defaultHost))
  }
).pipe(
  Config.map(({ port, legacyPort, host }) =>
    Option.map(
      Option.orElse(port, () => legacyPort),
      (chosen) => ({ host, port: chosen, settings: "PETSTORE_METRICS_PORT, PETSTORE_METRICS_HOST" })
    )
  )
)
