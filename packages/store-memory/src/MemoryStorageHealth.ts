/**
 * StorageHealth of the in-memory store: memory always answers.
 */
import { StorageHealth } from "@petstore/kernel"
import { Effect, Layer } from "effect"

export const layer: Layer.Layer<StorageHealth> = Layer.succeed(
  StorageHealth,
  StorageHealth.of({ check: Effect.void })
)
