/**
 * The behaviour every StorageHealth must have while its storage is up.
 */
import { describe, layer, type Vitest } from "@effect/vitest"
import { StorageHealth } from "@petstore/kernel"
import { Effect, type Layer } from "effect"

export const storageHealthTests = (it: Vitest.MethodsNonLive<StorageHealth>): void => {
  it.effect("check succeeds while storage answers", () =>
    Effect.flatMap(StorageHealth, (health) => health.check)
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const storageHealthContract = <E>(name: string, store: Layer.Layer<StorageHealth, E>): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("StorageHealth", () => storageHealthTests(it))
  )
