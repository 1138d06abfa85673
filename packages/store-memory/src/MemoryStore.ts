/**
 * Every storage port kept in memory: for tests, demos and a server run without a database. Each
 * build of the layer is a fresh, empty store; nothing survives the process.
 */
import type { ApiKeyRepository, IdempotencyRepository, PetRepository, StorageHealth } from "@petstore/domain"
import { Layer } from "effect"
import * as MemoryApiKeyRepository from "./MemoryApiKeyRepository.js"
import * as MemoryIdempotencyRepository from "./MemoryIdempotencyRepository.js"
import * as MemoryIdempotencyTable from "./MemoryIdempotencyTable.js"
import * as MemoryPetRepository from "./MemoryPetRepository.js"
import * as MemoryStorageHealth from "./MemoryStorageHealth.js"

export const layer: Layer.Layer<PetRepository | IdempotencyRepository | ApiKeyRepository | StorageHealth> =
  Layer.mergeAll(
    MemoryPetRepository.layer,
    MemoryIdempotencyRepository.layer,
    MemoryApiKeyRepository.layer,
    MemoryStorageHealth.layer
  ).pipe(Layer.provide(MemoryIdempotencyTable.layer))
