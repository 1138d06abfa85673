/**
 * Every repository contract against one store: a single build of `store` (one database) serves all
 * the suites, whose tests tolerate each other's rows.
 */
import { describe, layer } from "@effect/vitest"
import type { CertificateStore, Http01ChallengeStore } from "@petstore/certificates"
import type { ApiKeyRepository, StorageHealth } from "@petstore/kernel"
import type { ClaimRepository, OwnershipRepository } from "@petstore/ownership"
import type { WebhookDeliveryRepository, WebhookRepository } from "@petstore/webhooks"
import type { Layer } from "effect"
import { apiKeyRepositoryTests } from "./ApiKeyRepositoryContract.js"
import { certificateStoreTests } from "./CertificateStoreContract.js"
import { claimRepositoryTests } from "./ClaimRepositoryContract.js"
import { decidedWritesTests } from "./DecidedWritesContract.js"
import { domainConfigRepositoryTests } from "./DomainConfigRepositoryContract.js"
import { domainEventRepositoryTests } from "./DomainEventRepositoryContract.js"
import {
  type DomainRepositoryContractOptions,
  type DomainStore,
  domainRepositoryTests
} from "./DomainRepositoryContract.js"
import { http01ChallengeStoreTests } from "./Http01ChallengeStoreContract.js"
import { idempotencyRepositoryTests } from "./IdempotencyRepositoryContract.js"
import { ownershipRepositoryTests } from "./OwnershipRepositoryContract.js"
import { type PetStore, petRepositoryTests } from "./PetRepositoryContract.js"
import { projectRepositoryTests } from "./ProjectRepositoryContract.js"
import { storageHealthTests } from "./StorageHealthContract.js"
import { webhookDeliveryRepositoryTests } from "./WebhookDeliveryRepositoryContract.js"
import { webhookRepositoryTests } from "./WebhookRepositoryContract.js"

export type Store =
  | PetStore
  | ApiKeyRepository
  | StorageHealth
  | DomainStore
  | ClaimRepository
  | OwnershipRepository
  | CertificateStore
  | Http01ChallengeStore
  | WebhookRepository
  | WebhookDeliveryRepository

export interface StoreContractOptions extends DomainRepositoryContractOptions {
  /** Per-test timeout in milliseconds (the suites' default otherwise). */
  readonly timeout?: number
}

export const storeContract = <E>(
  name: string,
  store: Layer.Layer<Store, E>,
  options: StoreContractOptions = {}
): void =>
  layer(store, {
    excludeTestServices: true,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout })
  })(name, (it) => {
    describe("PetRepository", () => petRepositoryTests(it))
    describe("IdempotencyRepository", () => idempotencyRepositoryTests(it))
    describe("ApiKeyRepository", () => apiKeyRepositoryTests(it))
    describe("StorageHealth", () => storageHealthTests(it))
    describe("ProjectRepository", () => projectRepositoryTests(it))
    describe("DomainConfigRepository", () => domainConfigRepositoryTests(it))
    describe("CustomDomainRepository", () => domainRepositoryTests(it, options))
    describe("DomainEventRepository", () => domainEventRepositoryTests(it))
    describe("ClaimRepository", () => claimRepositoryTests(it))
    describe("decided writes", () => decidedWritesTests(it))
    describe("OwnershipRepository", () => ownershipRepositoryTests(it))
    describe("CertificateStore", () => certificateStoreTests(it))
    describe("Http01ChallengeStore", () => http01ChallengeStoreTests(it))
    describe("WebhookRepository", () => webhookRepositoryTests(it))
    describe("WebhookDeliveryRepository", () => webhookDeliveryRepositoryTests(it))
  })
