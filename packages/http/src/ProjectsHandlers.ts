/**
 * The custom-domain handlers: each calls one use case as the key's account and maps its failures.
 */
import { HttpApiBuilder } from "@effect/platform"
import { CurrentCaller, PetstoreApi, ProjectView } from "@petstore/api"
import {
  addDomain,
  changePlan,
  createProject,
  defaultHostnameOf,
  getDomain,
  getDomainConfig,
  listDomains,
  PlatformSettings,
  type Project,
  ProjectId,
  ProjectNotFound,
  putDomainConfig,
  recordProjectDeploy,
  removeDomain,
  reverifyDomain,
  verifyNow
} from "@petstore/domain"
import { Effect, Option, Schema } from "effect"
import {
  deployRequired,
  domainNotFound,
  hostnameTaken,
  invalidDomainRequest,
  notReverifiable,
  planRequired,
  projectIdTaken,
  projectNotFound
} from "./DomainErrors.js"
import { storageUnavailable } from "./StorageUnavailable.js"

const view = (project: Project) =>
  Effect.map(
    PlatformSettings,
    (settings) =>
      new ProjectView({
        id: project.id,
        plan: project.plan,
        defaultHostname: defaultHostnameOf(project.id, settings.platformDomain),
        lastDeploy: project.lastDeploy
      })
  )

const decodeProjectId = Schema.decodeOption(ProjectId)

/** The caller's account and the project id of the path; an id that cannot exist is simply not found. */
const scope = (projectIdText: string) =>
  Effect.gen(function* () {
    const caller = yield* CurrentCaller
    const id = decodeProjectId(projectIdText)
    if (Option.isNone(id)) return yield* new ProjectNotFound({ id: projectIdText })
    return { account: caller.account, id: id.value }
  })

const common = {
  ProjectNotFound: projectNotFound,
  DomainNotFound: domainNotFound,
  StorageError: storageUnavailable
} as const

export const ProjectsHandlers = HttpApiBuilder.group(PetstoreApi, "projects", (handlers) =>
  handlers
    .handle("createProject", ({ payload }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        return yield* view(yield* createProject(caller.account, payload.id, payload.plan))
      }).pipe(Effect.catchTags({ ProjectIdTaken: projectIdTaken, StorageError: storageUnavailable }))
    )
    .handle("changePlan", ({ path, payload }) =>
      Effect.gen(function* () {
        const { account, id } = yield* scope(path.projectId)
        return yield* view(yield* changePlan(account, id, payload.plan))
      }).pipe(Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable }))
    )
    .handle("recordDeploy", ({ path, payload }) =>
      Effect.gen(function* () {
        const { account, id } = yield* scope(path.projectId)
        return yield* view(yield* recordProjectDeploy(account, id, payload.status))
      }).pipe(Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable }))
    )
    .handle("listDomains", ({ path }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) => listDomains(account, id)).pipe(
        Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable })
      )
    )
    .handle("addDomain", ({ path, payload }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) =>
        addDomain(account, id, payload.hostname)
      ).pipe(
        Effect.catchTags({
          ProjectNotFound: projectNotFound,
          InvalidDomainRequest: invalidDomainRequest,
          PlanRequired: planRequired,
          DeployRequired: deployRequired,
          HostnameTaken: hostnameTaken,
          StorageError: storageUnavailable
        })
      )
    )
    .handle("getDomain", ({ path }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) => getDomain(account, id, path.hostname)).pipe(
        Effect.catchTags(common)
      )
    )
    .handle("verifyDomain", ({ path }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) => verifyNow(account, id, path.hostname)).pipe(
        Effect.catchTags(common)
      )
    )
    .handle("reverifyDomain", ({ path }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) =>
        reverifyDomain(account, id, path.hostname)
      ).pipe(Effect.catchTags({ ...common, NotReverifiable: notReverifiable }))
    )
    .handle("removeDomain", ({ path }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) =>
        removeDomain(account, id, path.hostname)
      ).pipe(Effect.catchTags(common))
    )
    .handle("getDomainConfig", ({ path }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) => getDomainConfig(account, id)).pipe(
        Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable })
      )
    )
    .handle("putDomainConfig", ({ path, payload }) =>
      Effect.flatMap(scope(path.projectId), ({ account, id }) => putDomainConfig(account, id, payload)).pipe(
        Effect.catchTags({
          ProjectNotFound: projectNotFound,
          InvalidDomainRequest: invalidDomainRequest,
          StorageError: storageUnavailable
        })
      )
    )
)
