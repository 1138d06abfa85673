/**
 * `petstore keys create --account <name>`, `petstore keys list`, `petstore keys revoke <id>`: API key
 * management on the storage the environment configures (the same variables as the server). A new
 * key is printed once, on its own line; only its hash is stored.
 */
import { Args, Command, Options, ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { AccountName, ApiKeyId, issueApiKey, listApiKeys, revokeApiKey } from "@petstore/domain"
import { Cause, Console, Effect, Layer, Logger, Option, Schema } from "effect"
import { LogLevelConfig, StorageConfig } from "./AppConfig.js"
import { describeFailure } from "./Failure.js"
import { apiKeyStorageLayer } from "./Storage.js"

const account = Options.text("account").pipe(
  Options.withSchema(AccountName),
  Options.withDescription("The account that owns the key (lower-case letters, digits, '-' or '_').")
)

const create = Command.make("create", { account }, ({ account }) =>
  Effect.gen(function* () {
    const issued = yield* issueApiKey(account)
    yield* Console.error(`Created ${issued.record.id} for account ${account}. The key is shown once:`)
    yield* Console.log(issued.token)
  })
).pipe(Command.withDescription("Create a key and print it once."))

const list = Command.make("list", {}, () =>
  Effect.gen(function* () {
    const keys = yield* listApiKeys
    for (const key of keys) {
      const revoked = Option.match(key.revokedAt, {
        onNone: () => "active",
        onSome: (at) => `revoked ${at.toISOString()}`
      })
      yield* Console.log(`${key.id}\t${key.account}\t${key.createdAt.toISOString()}\t${revoked}`)
    }
  })
).pipe(
  Command.withDescription("List keys: id, account, creation date, state. Keys themselves are never shown.")
)

const id = Args.text({ name: "id" }).pipe(
  Args.withSchema(ApiKeyId),
  Args.withDescription("The key id, e.g. key_0123456789abcdef.")
)

const revoke = Command.make("revoke", { id }, ({ id }) =>
  Effect.gen(function* () {
    const revoked = yield* revokeApiKey(id)
    if (!revoked) return yield* Effect.fail(new KeyNotRevoked({ id }))
    yield* Console.log(`Revoked ${id}.`)
  })
).pipe(Command.withDescription("Revoke a key: it is refused from now on."))

class KeyNotRevoked extends Schema.TaggedError<KeyNotRevoked>()("KeyNotRevoked", { id: Schema.String }) {
  override get message() {
    return `No active key ${this.id}.`
  }
}

const keys = Command.make("keys").pipe(
  Command.withSubcommands([create, list, revoke]),
  Command.withDescription("Manage API keys.")
)

const petstore = Command.make("petstore").pipe(Command.withSubcommands([keys]))

const cli = Command.run(petstore, { name: "petstore", version: "1.0.0" })

const StorageLive = Layer.unwrapEffect(Effect.map(StorageConfig, apiKeyStorageLayer))

Effect.flatMap(LogLevelConfig, (level) =>
  Effect.suspend(() => cli(process.argv)).pipe(Effect.provide(StorageLive), Logger.withMinimumLogLevel(level))
).pipe(
  // @effect/cli has already explained a validation error, with the usage; anything else is said here.
  Effect.tapErrorCause((cause) =>
    Cause.isInterruptedOnly(cause) ||
    Option.exists(Cause.failureOption(cause), ValidationError.isValidationError)
      ? Effect.void
      : Console.error(`petstore: ${describeFailure(cause)}`)
  ),
  Effect.provide(Layer.merge(NodeContext.layer, Logger.json)),
  NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
)
