/**
 * Port: whether storage can answer right now (what `/readyz` reports).
 */
import type { Effect } from "effect"
import { Context } from "effect"
import type { StorageError } from "./Errors.js"

export class StorageHealth extends Context.Service<
  StorageHealth,
  { readonly check: Effect.Effect<void, StorageError> }
>()("@petstore/kernel/StorageHealth") {}
