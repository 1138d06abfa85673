/**
 * Port: where documentation projects are kept. An account has at most
 * `projectsPerAccount` projects: the store counts and inserts in one step, so concurrent creations at the
 * limit never overshoot it.
 */

import type { AccountName, LimitReached, LimitValues, StorageError } from "@petstore/kernel"
import type { Effect, Option } from "effect"
import { Context } from "effect"
import type { ProjectIdTaken } from "./Errors.js"
import type { Project, ProjectId } from "./Project.js"

export interface ProjectQuery {
  readonly account: AccountName
  /** Only projects whose id sorts after this one: the cursor of the previous page. */
  readonly after: Option.Option<ProjectId>
  /** At most this many projects (1 to 100). */
  readonly limit: number
}

export interface ProjectPage {
  readonly projects: ReadonlyArray<Project>
  /** The cursor of the next page, present only when more projects follow. */
  readonly nextAfter: Option.Option<ProjectId>
}

export class ProjectRepository extends Context.Service<
  ProjectRepository,
  {
    /**
     * Fails with `ProjectIdTaken` when any account already has a project with this id, and with
     * `LimitReached` when the project's account has `limits.projectsPerAccount` projects already.
     */
    readonly insert: (
      project: Project,
      limits: Pick<LimitValues, "projectsPerAccount">
    ) => Effect.Effect<void, ProjectIdTaken | LimitReached | StorageError>
    /** The project with this id, whoever owns it (the edge and the worker need this). */
    readonly findById: (id: ProjectId) => Effect.Effect<Option.Option<Project>, StorageError>
    /** The project only if `account` owns it: another account's project is simply not there. */
    readonly findOwned: (
      account: AccountName,
      id: ProjectId
    ) => Effect.Effect<Option.Option<Project>, StorageError>
    /** The account's projects after the cursor, in ascending id order. */
    readonly listOwned: (query: ProjectQuery) => Effect.Effect<ProjectPage, StorageError>
    readonly update: (project: Project) => Effect.Effect<void, StorageError>
  }
>()("@petstore/projects/ProjectRepository") {}
