/**
 * The storage the configuration chose, with its migrations run before anything uses it, and the
 * certificate authority that goes with it.
 */

import * as CertificateAuthority from "@petstore/acme/CertificateAuthority"
import { AdminEndpointFile, ApiKeyAdminClient } from "@petstore/api-key-admin-client"
import type { ApiSettings, CustomDomainCheckSettings, StorageChoice } from "@petstore/app-config"
import { NodeDnsResolver } from "@petstore/dns"
import { LocalApiKeyAdmin } from "@petstore/http"
import { runCustomDomainChecks } from "@petstore/jobs"
import { ApiKeyRepository, type StorageError } from "@petstore/kernel"
import { MemoryStore } from "@petstore/store-memory"
import {
  EmbeddedPostgres,
  PgMigrations,
  PgStore,
  type PrivateKeyCipher,
  PrivateKeySecret
} from "@petstore/store-pg"
import { NodeWebhookSender } from "@petstore/webhook-sender"
import { Effect, Layer, Option, type Redacted } from "effect"

/**
 * `secretKey` encrypts the certificates' private keys and the webhooks' secrets; none: a secret
 * generated in the data directory.
 */
export const storageLayer = (choice: StorageChoice, secretKey?: Redacted.Redacted<string>) => {
  switch (choice._tag) {
    case "Memory":
      return MemoryStore.layer
    case "Postgres":
    case "Embedded":
      return PgStore.migratedLayer(postgresClient(choice), cipherLayer(choice, secretKey))
  }
}

const cipherLayer = (
  choice: Exclude<StorageChoice, { _tag: "Memory" }>,
  secretKey: Redacted.Redacted<string> | undefined
) => PrivateKeySecret.cipherLayer({ directory: choice.dataDir, secret: secretKey })

const postgresClient = (choice: Exclude<StorageChoice, { _tag: "Memory" }>) =>
  choice._tag === "Postgres"
    ? PgStore.clientLayer({ url: choice.url })
    : EmbeddedPostgres.clientLayer({ dataDirectory: choice.dataDir })

/**
 * The key storage alone, for the CLI. It runs the migrations too, which encrypt what they find (webhook
 * secrets), so it needs the same secret as the server (`PETSTORE_SECRET_KEY`, or the data directory's).
 */
const keyStorageLayer = (choice: StorageChoice, secretKey: Redacted.Redacted<string> | undefined) =>
  choice._tag === "Memory"
    ? MemoryStore.layer
    : PgStore.layer.pipe(
        Layer.provide(PgMigrations.layer),
        Layer.provide(postgresClient(choice)),
        Layer.provide(cipherLayer(choice, secretKey))
      )

/** The certificate authority: `acme` when given, else the local CA kept with the data. */
const certificateIssuerLayer = (choice: StorageChoice, acme?: CertificateAuthority.AcmeAccount) =>
  CertificateAuthority.issuerLayer({
    dataDirectory: choice._tag === "Memory" ? undefined : choice.dataDir,
    acme
  })

/**
 * The API keys for the key CLI. The embedded database admits one process: while a server holds it,
 * the keys are reached through that server's loopback key administration instead.
 */
export const apiKeyStorageLayer = (
  choice: StorageChoice,
  secretKey?: Redacted.Redacted<string>
): Layer.Layer<
  ApiKeyRepository,
  StorageError | EmbeddedPostgres.EmbeddedPostgresError | PrivateKeyCipher.PrivateKeyCipherError
> => {
  if (choice._tag !== "Embedded") return keyStorageLayer(choice, secretKey)
  return Layer.unwrap(
    Effect.gen(function* (): Effect.fn.Return<
      Layer.Layer<
        ApiKeyRepository,
        StorageError | EmbeddedPostgres.EmbeddedPostgresError | PrivateKeyCipher.PrivateKeyCipherError
      >
    > {
      const owner = yield* EmbeddedPostgres.lockOwner(choice.dataDir)
      if (Option.isNone(owner)) return keyStorageLayer(choice, secretKey)
      const endpoint = yield* AdminEndpointFile.findEndpoint(choice.dataDir)
      if (Option.isNone(endpoint)) {
        return Layer.effect(
          ApiKeyRepository,
          Effect.fail(
            new EmbeddedPostgres.EmbeddedPostgresError({
              message: `The embedded database in ${choice.dataDir} is held by process ${owner.value}, which offers no key administration; stop it and retry.`
            })
          )
        )
      }
      return ApiKeyAdminClient.layer(endpoint.value)
    })
  )
}

/**
 * What a server must run beside storage only it can open (embedded, memory): the key administration
 * for the CLI, and the domain, certificate, claim and webhook work a separate worker process would
 * otherwise run, shaped by the worker's knobs (`inProcessChecks`, read for such storage) and
 * delivering as the webhook settings allow.
 */
export const exclusiveStorageCompanions = ({ adapters, inProcessChecks, storage, webhooks }: ApiSettings) =>
  storage._tag === "Postgres"
    ? Layer.empty
    : Layer.mergeAll(
        storage._tag === "Embedded" ? LocalApiKeyAdmin.layer({ directory: storage.dataDir }) : Layer.empty,
        Option.match(inProcessChecks, {
          onNone: () => Layer.empty,
          onSome: (checks) =>
            inProcessDomainChecks(checks).pipe(
              Layer.provide(certificateIssuerLayer(storage, adapters.acme)),
              Layer.provide(
                // A c-ares channel of its own: a receiver's slow name server holds no domain check.
                NodeWebhookSender.layer({
                  allowPrivate: webhooks.allowPrivate,
                  timeout: NodeWebhookSender.defaultTimeout
                }).pipe(Layer.provide(NodeDnsResolver.layer(adapters.dns)))
              )
            )
        })
      )

/** The worker's loops in this process, holding their leases as `api:<pid>`. */
const inProcessDomainChecks = (checks: CustomDomainCheckSettings) =>
  Layer.effectDiscard(
    Effect.forkScoped(
      runCustomDomainChecks({
        ...checks,
        holder: `api:${process.pid}`,
        sendTimeout: NodeWebhookSender.defaultTimeout
      })
    )
  )
