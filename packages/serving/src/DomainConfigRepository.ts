/**
 * Port: where each project's domain config (its primary hostname and its redirects) is kept, beside
 * the project. None until the owner sets one: the project is then served at its default hostname.
 */
import type { StorageError } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { DomainConfig } from "./DomainConfig.js"

export class DomainConfigRepository extends Context.Service<
  DomainConfigRepository,
  {
    /** The config the owner set; none until one is set. */
    readonly find: (id: ProjectId) => Effect.Effect<Option.Option<DomainConfig>, StorageError>
    readonly save: (id: ProjectId, config: DomainConfig) => Effect.Effect<void, StorageError>
  }
>()("@petstore/serving/DomainConfigRepository") {}
