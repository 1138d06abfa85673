/**
 * The project use cases, written against the ports only. Every operation on a project goes through
 * its owner: another account's project is not found, never forbidden.
 */
import type { AccountName } from "@petstore/kernel"
import { Limits } from "@petstore/kernel"
import { DateTime, Effect, Option } from "effect"
import { ProjectNotFound } from "./Errors.js"
import type { Plan } from "./Plan.js"
import { Deploy, type DeployStatus, Project, type ProjectId, recordDeploy } from "./Project.js"
import { ProjectRepository } from "./ProjectRepository.js"

const now = DateTime.nowAsDate

export const createProject = (account: AccountName, id: ProjectId, plan: Plan) =>
  Effect.gen(function* () {
    const project = new Project({
      id,
      account,
      plan,
      lastDeploy: null,
      lastSucceededDeployAt: null,
      createdAt: yield* now
    })
    const limits = yield* Limits
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.insert(project, limits))
    return project
  })

/** The account's projects, a page at a time in ascending id order (`after`: the previous page's cursor). */
export const listProjects = (
  account: AccountName,
  page: { readonly after: Option.Option<ProjectId>; readonly limit: number }
) => Effect.flatMap(ProjectRepository, (projects) => projects.listOwned({ account, ...page }))

export const findOwnedProject = (account: AccountName, id: ProjectId) =>
  Effect.flatMap(ProjectRepository, (projects) => projects.findOwned(account, id)).pipe(
    Effect.flatMap(
      Option.match({ onNone: () => Effect.fail(new ProjectNotFound({ id })), onSome: Effect.succeed })
    )
  )

export const changePlan = (account: AccountName, id: ProjectId, plan: Plan) =>
  Effect.gen(function* () {
    const project = new Project({ ...(yield* findOwnedProject(account, id)), plan })
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.update(project))
    return project
  })

export const recordProjectDeploy = (account: AccountName, id: ProjectId, status: DeployStatus) =>
  Effect.gen(function* () {
    const project = recordDeploy(yield* findOwnedProject(account, id), new Deploy({ status, at: yield* now }))
    yield* Effect.flatMap(ProjectRepository, (projects) => projects.update(project))
    return project
  })
