/**
 * The rate-limit policy: the application chooses the numbers, the kernel names the policies and says
 * which bucket a request takes its token from.
 */
import { ApiKeyId, addressBucket, keyBucket, RateLimits } from "@petstore/kernel"
import { Duration, Effect } from "effect"

const program = Effect.gen(function* () {
  const policies = yield* RateLimits
  const byKey = keyBucket(policies, ApiKeyId.make("key_00000000000000a1"))
  const byAddress = addressBucket(policies, "203.0.113.7")
  console.log(byKey.policy.name, byKey.policy.limit, byKey.key)
  console.log(byAddress.policy.name, byAddress.policy.limit, byAddress.key)
  console.log(Duration.toSeconds(byKey.policy.window))
})

Effect.runPromise(
  program.pipe(Effect.provide(RateLimits.layer({ perKey: 100, perAddress: 20, window: Duration.minutes(1) })))
)

// Output:
// api-key 100 key:key_00000000000000a1
// client-address 20 address:203.0.113.7
// 60
