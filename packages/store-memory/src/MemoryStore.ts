/**
 * Every storage port kept in memory: for tests, demos and a server run without a database. Each
 * build of the layer is a fresh, empty store; nothing survives the process. Every change goes
 * through this process, so its repositories announce what changes serving (`ServingChanges`) and
 * nothing else can change it. Domains, the events of their changes, webhooks and the deliveries of
 * those events share one table (`MemoryDomainTable`): the domain repository writes domains and events
 * (queuing deliveries), the event repository reads events, the webhook repositories the rest.
 */
import type { IdempotencyRepository, PetRepository } from "@petstore/catalogue"
import { CertificateStore, type Http01ChallengeStore } from "@petstore/certificates"
import type { CustomDomainRepository } from "@petstore/domains"
import type { DomainEventRepository } from "@petstore/events"
import type { ApiKeyRepository, StorageHealth } from "@petstore/kernel"
import { ClaimRepository, type DecidedWritesStore, type OwnershipRepository } from "@petstore/ownership"
import type { ProjectRepository } from "@petstore/projects"
import {
  announcingCertificates,
  announcingCustomDomains,
  announcingDecidedWrites,
  announcingDomainConfigs,
  announcingProjects,
  type DomainConfigRepository,
  inProcessServingChangeHubLayer,
  type ServingChanges,
  servingChangesLayer
} from "@petstore/serving"
import type { WebhookDeliveryRepository, WebhookRepository } from "@petstore/webhooks"
import { Layer } from "effect"
import * as MemoryApiKeyRepository from "./MemoryApiKeyRepository.js"
import * as MemoryCertificateStore from "./MemoryCertificateStore.js"
import * as MemoryClaimRepository from "./MemoryClaimRepository.js"
import * as MemoryDomainEventRepository from "./MemoryDomainEventRepository.js"
import * as MemoryDomainRepository from "./MemoryDomainRepository.js"
import * as MemoryDomainTable from "./MemoryDomainTable.js"
import * as MemoryHttp01ChallengeStore from "./MemoryHttp01ChallengeStore.js"
import * as MemoryIdempotencyRepository from "./MemoryIdempotencyRepository.js"
import * as MemoryIdempotencyTable from "./MemoryIdempotencyTable.js"
import * as MemoryOwnershipRepository from "./MemoryOwnershipRepository.js"
import * as MemoryPetRepository from "./MemoryPetRepository.js"
import * as MemoryProjectRepository from "./MemoryProjectRepository.js"
import * as MemoryStorageHealth from "./MemoryStorageHealth.js"
import * as MemoryWebhookDeliveryRepository from "./MemoryWebhookDeliveryRepository.js"
import * as MemoryWebhookRepository from "./MemoryWebhookRepository.js"

export const layer: Layer.Layer<
  | PetRepository
  | IdempotencyRepository
  | ApiKeyRepository
  | ProjectRepository
  | DomainConfigRepository
  | CustomDomainRepository
  | DecidedWritesStore
  | DomainEventRepository
  | ClaimRepository
  | OwnershipRepository
  | CertificateStore
  | Http01ChallengeStore
  | WebhookRepository
  | WebhookDeliveryRepository
  | StorageHealth
  | ServingChanges
> = Layer.mergeAll(
  MemoryPetRepository.layer,
  MemoryIdempotencyRepository.layer,
  MemoryApiKeyRepository.layer,
  Layer.merge(announcingProjects, announcingDomainConfigs).pipe(Layer.provide(MemoryProjectRepository.layer)),
  Layer.merge(announcingCustomDomains, announcingDecidedWrites).pipe(
    Layer.provide(MemoryDomainRepository.storesLayer)
  ),
  MemoryDomainEventRepository.layer,
  Layer.effect(ClaimRepository, MemoryClaimRepository.make),
  MemoryOwnershipRepository.layer,
  announcingCertificates.pipe(Layer.provide(Layer.effect(CertificateStore, MemoryCertificateStore.make))),
  MemoryHttp01ChallengeStore.layer,
  MemoryWebhookRepository.layer,
  MemoryWebhookDeliveryRepository.layer,
  MemoryStorageHealth.layer,
  servingChangesLayer
).pipe(
  Layer.provide(
    Layer.mergeAll(MemoryIdempotencyTable.layer, MemoryDomainTable.layer, inProcessServingChangeHubLayer)
  )
)
