/**
 * Every storage port kept in memory: for tests, demos and a server run without a database. Each
 * build of the layer is a fresh, empty store; nothing survives the process.
 */
import type {
  ApiKeyRepository,
  CertificateStore,
  DomainRepository,
  Http01ChallengeStore,
  IdempotencyRepository,
  PetRepository,
  ProjectRepository,
  StorageHealth
} from "@petstore/domain"
import { Layer } from "effect"
import * as MemoryApiKeyRepository from "./MemoryApiKeyRepository.js"
import * as MemoryCertificateStore from "./MemoryCertificateStore.js"
import * as MemoryDomainRepository from "./MemoryDomainRepository.js"
import * as MemoryHttp01ChallengeStore from "./MemoryHttp01ChallengeStore.js"
import * as MemoryIdempotencyRepository from "./MemoryIdempotencyRepository.js"
import * as MemoryIdempotencyTable from "./MemoryIdempotencyTable.js"
import * as MemoryPetRepository from "./MemoryPetRepository.js"
import * as MemoryProjectRepository from "./MemoryProjectRepository.js"
import * as MemoryStorageHealth from "./MemoryStorageHealth.js"

export const layer: Layer.Layer<
  | PetRepository
  | IdempotencyRepository
  | ApiKeyRepository
  | ProjectRepository
  | DomainRepository
  | CertificateStore
  | Http01ChallengeStore
  | StorageHealth
> = Layer.mergeAll(
  MemoryPetRepository.layer,
  MemoryIdempotencyRepository.layer,
  MemoryApiKeyRepository.layer,
  MemoryProjectRepository.layer,
  MemoryDomainRepository.layer,
  MemoryCertificateStore.layer,
  MemoryHttp01ChallengeStore.layer,
  MemoryStorageHealth.layer
).pipe(Layer.provide(MemoryIdempotencyTable.layer))
