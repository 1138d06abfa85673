/**
 * Storage whose animal, idempotency, claim, event, webhook and health operations all fail, as a database that went
 * away would, with an error full of internal detail (an address, SQL) that must never reach a client.
 * Keys, projects, domains, ownership tokens and certificates stay in memory, so requests still pass
 * authentication.
 */
import { IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import { DomainEventRepository } from "@petstore/events"
import { StorageError, StorageHealth } from "@petstore/kernel"
import { ClaimRepository } from "@petstore/ownership"
import {
  MemoryApiKeyRepository,
  MemoryCertificateStore,
  MemoryDomainRepository,
  MemoryOwnershipRepository,
  MemoryProjectRepository
} from "@petstore/store-memory"
import { WebhookRepository } from "@petstore/webhooks"
import { Effect, Layer } from "effect"

/** What the failing operations' errors carry: none of it may appear in an answer. */
const internalDetail = "connect ECONNREFUSED 10.1.2.3:5432 while running SELECT * FROM pets"

const failing = (operation: string) =>
  Effect.fail(new StorageError({ operation, cause: new Error(internalDetail) }))

/** A fresh one each time it is built (the key repository is in memory). */
export const brokenStorage = () =>
  Layer.mergeAll(
    Layer.succeed(PetRepository, {
      create: () => failing("create"),
      findById: () => failing("findById"),
      list: () => failing("list")
    }),
    Layer.succeed(IdempotencyRepository, {
      reserve: () => failing("reserve"),
      release: () => failing("release"),
      purge: () => failing("purge")
    }),
    Layer.succeed(ClaimRepository, {
      insert: () => failing("insertClaim"),
      findOwned: () => failing("findOwnedClaim"),
      listByAccount: () => failing("listClaims"),
      listByApexes: () => failing("listClaimsByApexes"),
      update: () => failing("updateClaim"),
      remove: () => failing("removeClaim"),
      claimDue: () => failing("claimDueClaims"),
      completeChecks: () => failing("completeClaimChecks"),
      releaseLease: () => failing("releaseClaimLease")
    }),
    Layer.succeed(WebhookRepository, {
      insert: () => failing("insertWebhook"),
      listByProject: () => failing("listWebhooks"),
      find: () => failing("findWebhook"),
      enable: () => failing("enableWebhook"),
      rotateSecret: () => failing("rotateWebhookSecret"),
      remove: () => failing("removeWebhook"),
      listAttempts: () => failing("listDeliveryAttempts")
    }),
    Layer.succeed(StorageHealth, { check: failing("check") }),
    MemoryApiKeyRepository.layer,
    MemoryProjectRepository.layer,
    MemoryDomainRepository.layer,
    MemoryOwnershipRepository.layer,
    MemoryCertificateStore.layer,
    // Last: it replaces the events the memory domain repository would read.
    Layer.succeed(DomainEventRepository, {
      listByProject: () => failing("listEvents"),
      purge: () => failing("purgeEvents")
    })
  )
