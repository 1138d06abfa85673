/**
 * The storage-health port, the shared `StorageError`, and a faster SHA-256 than Web Crypto's
 * default, as a Node server provides it.
 */
import { createHash } from "node:crypto"
import { hashApiKeyToken, Sha256, StorageError, StorageHealth } from "@petstore/kernel"
import { Effect, Layer } from "effect"

/** What `/readyz` reports: every port operation fails with `StorageError` only. */
const readiness = Effect.flatMap(StorageHealth, (storage) => storage.check).pipe(
  Effect.as("ready"),
  Effect.catchTag("StorageError", (error) => Effect.succeed(`not ready: ${error.message}`))
)

const Healthy = Layer.succeed(StorageHealth, StorageHealth.of({ check: Effect.void }))
const Unreachable = Layer.succeed(
  StorageHealth,
  StorageHealth.of({
    check: Effect.fail(new StorageError({ operation: "ping", cause: new Error("connection refused") }))
  })
)

const nodeSha256 = (text: string) => Effect.succeed(createHash("sha256").update(text).digest("hex"))

const program = Effect.gen(function* () {
  console.log(yield* readiness.pipe(Effect.provide(Healthy)))
  console.log(yield* readiness.pipe(Effect.provide(Unreachable)))
  const webCrypto = yield* hashApiKeyToken("pk_live_example")
  const node = yield* hashApiKeyToken("pk_live_example").pipe(Effect.provideService(Sha256, nodeSha256))
  console.log(webCrypto === node)
})

Effect.runPromise(program)

// Output:
// ready
// not ready: ping failed: connection refused
// true
