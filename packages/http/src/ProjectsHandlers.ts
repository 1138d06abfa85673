/**
 * The custom-domain handlers: each calls one use case as the key's account and maps its failures.
 */
import { CurrentCaller, DomainList, PetstoreApi, ProjectView } from "@petstore/api"
import { defaultListLimit } from "@petstore/catalogue"
import {
  addDomain,
  getDomain,
  listDomains,
  removeDomain,
  reverifyDomain,
  verifyNow
} from "@petstore/custom-domains"
import { PlatformSettings } from "@petstore/domains"
import {
  changePlan,
  createProject,
  defaultHostnameOf,
  findOwnedProject,
  listProjects,
  type Project,
  recordProjectDeploy
} from "@petstore/projects"
import { getDomainConfig, putDomainConfig } from "@petstore/serving"
import { Effect, Option } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import {
  deployRequired,
  domainClaimed,
  domainNotFound,
  hostnameTaken,
  invalidDomainRequest,
  limitReached,
  notReverifiable,
  planRequired,
  projectIdTaken,
  projectNotFound
} from "./DomainErrors.js"
import { nextPageLink } from "./NextPageLink.js"
import { projectScope } from "./ProjectScope.js"
import { appendResponseHeaders } from "./ResponseHeaders.js"
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

const common = {
  ProjectNotFound: projectNotFound,
  DomainNotFound: domainNotFound,
  StorageError: storageUnavailable
} as const

export const ProjectsHandlers = HttpApiBuilder.group(PetstoreApi, "projects", (handlers) =>
  handlers
    .handle("listProjects", ({ query }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        const limit = query.limit ?? defaultListLimit
        const page = yield* listProjects(caller.account, {
          after: Option.fromUndefinedOr(query.after),
          limit
        })
        if (Option.isSome(page.nextAfter)) {
          const link = nextPageLink("/v1/projects", [
            ["limit", limit],
            ["after", page.nextAfter.value]
          ])
          yield* appendResponseHeaders({ link })
        }
        return yield* Effect.forEach(page.projects, view)
      }).pipe(Effect.catchTags({ StorageError: storageUnavailable }))
    )
    .handle("getProject", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) => findOwnedProject(account, id)).pipe(
        Effect.flatMap(view),
        Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable })
      )
    )
    .handle("createProject", ({ payload }) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        return yield* view(yield* createProject(caller.account, payload.id, payload.plan))
      }).pipe(
        Effect.catchTags({
          ProjectIdTaken: projectIdTaken,
          LimitReached: limitReached,
          StorageError: storageUnavailable
        })
      )
    )
    .handle("changePlan", ({ params, payload }) =>
      Effect.gen(function* () {
        const { account, id } = yield* projectScope(params.projectId)
        return yield* view(yield* changePlan(account, id, payload.plan))
      }).pipe(Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable }))
    )
    .handle("recordDeploy", ({ params, payload }) =>
      Effect.gen(function* () {
        const { account, id } = yield* projectScope(params.projectId)
        return yield* view(yield* recordProjectDeploy(account, id, payload.status))
      }).pipe(Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable }))
    )
    .handle("listDomains", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) => listDomains(account, id)).pipe(
        // A class encodes only its own instances.
        Effect.map((list) => new DomainList(list)),
        Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable })
      )
    )
    .handle("addDomain", ({ params, payload }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        addDomain(account, id, payload.hostname)
      ).pipe(
        Effect.catchTags({
          ProjectNotFound: projectNotFound,
          InvalidDomainRequest: invalidDomainRequest,
          PlanRequired: planRequired,
          DeployRequired: deployRequired,
          HostnameTaken: hostnameTaken,
          DomainClaimed: domainClaimed,
          LimitReached: limitReached,
          StorageError: storageUnavailable
        })
      )
    )
    .handle("getDomain", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        getDomain(account, id, params.hostname)
      ).pipe(Effect.catchTags(common))
    )
    .handle("verifyDomain", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        verifyNow(account, id, params.hostname)
      ).pipe(Effect.catchTags(common))
    )
    .handle("reverifyDomain", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        reverifyDomain(account, id, params.hostname)
      ).pipe(Effect.catchTags({ ...common, NotReverifiable: notReverifiable }))
    )
    .handle("removeDomain", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        removeDomain(account, id, params.hostname)
      ).pipe(Effect.catchTags(common))
    )
    .handle("getDomainConfig", ({ params }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) => getDomainConfig(account, id)).pipe(
        Effect.catchTags({ ProjectNotFound: projectNotFound, StorageError: storageUnavailable })
      )
    )
    .handle("putDomainConfig", ({ params, payload }) =>
      Effect.flatMap(projectScope(params.projectId), ({ account, id }) =>
        putDomainConfig(account, id, payload)
      ).pipe(
        Effect.catchTags({
          ProjectNotFound: projectNotFound,
          InvalidDomainRequest: invalidDomainRequest,
          StorageError: storageUnavailable
        })
      )
    )
)
