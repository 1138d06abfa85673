/**
 * `petstore keys create --account <name>`, `petstore keys list`, `petstore keys revoke <id>`: API key
 * management on the storage the environment configures (the same variables as the server). A new
 * key is printed once, on its own line; only its hash is stored.
 */

import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { KeyStorageConfig, LogLevelConfig } from "@petstore/app-config"
import {
  AccountName,
  ApiKeyId,
  defaultAccountName,
  issueApiKey,
  listApiKeys,
  revokeApiKey
} from "@petstore/kernel"
import { JsonLogger } from "@petstore/telemetry"
import { Cause, Console, Effect, Layer, Option, References, Schema } from "effect"
import { Argument, CliError, Command, Flag } from "effect/cli"
import { describeFailure, teardown } from "./Failure.js"
import { apiKeyStorageLayer } from "./Storage.js"

const account = Flag.String("account").pipe(
  Flag.withSchema(AccountName),
  Flag.withDescription("The account that owns the key (lower-case letters, digits, '-' or '_').")
)

class ReservedAccount extends Schema.TaggedError<ReservedAccount>()("ReservedAccount", {
  account: Schema.String
}) {
  override get message() {
    return `The account ${this.account} holds only PETSTORE_BOOTSTRAP_KEY; choose another account.`
  }
}

const create = Command.make("create", { account }, ({ account }) =>
  Effect.gen(function* () {
    if (account === defaultAccountName) return yield* new ReservedAccount({ account })
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

const id = Argument.String("id").pipe(
  Argument.withSchema(ApiKeyId),
  Argument.withDescription("The key id, e.g. key_0123456789abcdef.")
)

class KeyNotRevoked extends Schema.TaggedError<KeyNotRevoked>()("KeyNotRevoked", { id: Schema.String }) {
  override get message() {
    return `No active key ${this.id}.`
  }
}

const revoke = Command.make("revoke", { id }, ({ id }) =>
  Effect.gen(function* () {
    const revoked = yield* revokeApiKey(id)
    if (!revoked) return yield* new KeyNotRevoked({ id })
    yield* Console.log(`Revoked ${id}.`)
  })
).pipe(Command.withDescription("Revoke a key: it is refused from now on."))

/** The key storage is opened only by a command that runs: usage errors and `--help` touch nothing. */
const StorageLive = Layer.unwrap(
  Effect.map(KeyStorageConfig, ({ secretKey, storage }) => apiKeyStorageLayer(storage, secretKey))
)

const keys = Command.make("keys").pipe(
  Command.withSubcommands([create, list, revoke]),
  Command.provide(StorageLive),
  Command.withDescription("Manage API keys.")
)

const petstore = Command.make("petstore").pipe(Command.withSubcommands([keys]))

const cli = Command.run(petstore, { version: "1.0.0" })

Effect.flatMap(LogLevelConfig, (level) =>
  cli.pipe(Effect.provideService(References.MinimumLogLevel, level))
).pipe(
  // The CLI has already explained a usage error, with the usage; anything else is said here.
  Effect.tapCause((cause) =>
    Cause.hasInterruptsOnly(cause) || Cause.findErrorOption(cause).pipe(Option.exists(CliError.isCliError))
      ? Effect.void
      : Console.error(`petstore: ${describeFailure(cause)}`)
  ),
  Effect.provide(Layer.merge(NodeServices.layer, JsonLogger.layer)),
  NodeRuntime.runMain({ disableErrorReporting: true, teardown })
)
