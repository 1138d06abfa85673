/**
 * Port: where documentation projects and their domain configs are kept.
 */

import type { AccountName, StorageError } from "@petstore/kernel"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { DomainConfig } from "./DomainConfig.js"
import type { ProjectIdTaken } from "./Errors.js"
import type { Project, ProjectId } from "./Project.js"

export class ProjectRepository extends Context.Service<
  ProjectRepository,
  {
    /** Fails with `ProjectIdTaken` when any account already has a project with this id. */
    readonly insert: (project: Project) => Effect.Effect<void, ProjectIdTaken | StorageError>
    /** The project with this id, whoever owns it (the edge and the worker need this). */
    readonly findById: (id: ProjectId) => Effect.Effect<Option.Option<Project>, StorageError>
    /** The project only if `account` owns it: another account's project is simply not there. */
    readonly findOwned: (
      account: AccountName,
      id: ProjectId
    ) => Effect.Effect<Option.Option<Project>, StorageError>
    readonly update: (project: Project) => Effect.Effect<void, StorageError>
    /** The config the owner set; none until one is set. */
    readonly findConfig: (id: ProjectId) => Effect.Effect<Option.Option<DomainConfig>, StorageError>
    readonly saveConfig: (id: ProjectId, config: DomainConfig) => Effect.Effect<void, StorageError>
  }
>()("@petstore/custom-domains/ProjectRepository") {}
