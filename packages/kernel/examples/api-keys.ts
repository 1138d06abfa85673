/**
 * Issue an API key, authenticate requests with it, revoke it: the kernel's rules over an in-memory
 * `ApiKeyRepository` (a real store implements the same port).
 */
import {
  ApiKeyRecord,
  ApiKeyRepository,
  authenticate,
  bearerTokenFromHeader,
  defaultAccountName,
  issueApiKey,
  listApiKeys,
  revokeApiKey
} from "@petstore/kernel"
import { Effect, Layer, Option } from "effect"

// The port keeps records (hashes only); a real store fails with StorageError when it cannot answer.
const stored = new Map<string, ApiKeyRecord>()
const MemoryApiKeys = Layer.succeed(
  ApiKeyRepository,
  ApiKeyRepository.of({
    insert: (record) =>
      Effect.sync(() => {
        if (!stored.has(record.hash)) stored.set(record.hash, record)
      }),
    findByHash: (hash) => Effect.sync(() => Option.fromNullishOr(stored.get(hash))),
    list: Effect.sync(() => [...stored.values()]),
    revoke: (id, at) =>
      Effect.sync(() => {
        const active = [...stored.values()].find((key) => key.id === id && Option.isNone(key.revokedAt))
        if (active === undefined) return false
        stored.set(active.hash, new ApiKeyRecord({ ...active, revokedAt: Option.some(at) }))
        return true
      })
  })
)

/** What a server answers for an `Authorization` header. */
const answer = (header: string | undefined) =>
  authenticate(header).pipe(
    Effect.map((caller) => `200 for account ${caller.account}`),
    Effect.catchTag("Unauthenticated", (refusal) =>
      Effect.succeed(refusal.tokenPresented ? "401 invalid_token" : "401 without a credential")
    )
  )

const program = Effect.gen(function* () {
  const { record, token } = yield* issueApiKey(defaultAccountName)
  console.log(token.startsWith("pk_live_"), record.hash.length) // the key is shown once; its hash is kept
  console.log(yield* answer(`Bearer ${token}`))
  console.log(yield* answer(`bearer   ${token}`)) // the scheme is case-insensitive
  console.log(yield* answer("Basic dXNlcjpwYXNz")) // another scheme is no bearer credential
  console.log(Option.isNone(bearerTokenFromHeader("Bearer two tokens")))
  console.log(yield* revokeApiKey(record.id), yield* revokeApiKey(record.id))
  console.log(yield* answer(`Bearer ${token}`))
  console.log((yield* listApiKeys).length)
})

Effect.runPromise(program.pipe(Effect.provide(MemoryApiKeys)))

// Output:
// true 64
// 200 for account default
// 200 for account default
// 401 without a credential
// true
// true false
// 401 invalid_token
// 1
