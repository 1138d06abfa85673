/**
 * Custom domains for published documentation sites: projects (standing in for the platform's own),
 * their deploys, their domains and domain config. Every operation needs a key and sees only the key's
 * own account's projects.
 */
import { CustomDomainResource } from "@petstore/domains"
import { Deploy, DeployStatus, Plan, ProjectId } from "@petstore/projects"
import { DomainConfig } from "@petstore/serving"
import { Schema } from "effect"
import { flow } from "effect/Function"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { takesJsonBody } from "./BodyOperation.js"
import { NamedClass } from "./NamedClass.js"
import { withResponseHeaders } from "./OpenApiDocument.js"
import { limitDescription, limitParameter, nextPageHeaders } from "./Paging.js"
import { describeParameters, textParameter } from "./QueryParameters.js"

export class ProjectView extends NamedClass<ProjectView>("Project")({
  id: ProjectId,
  plan: Plan,
  defaultHostname: Schema.String,
  lastDeploy: Schema.NullOr(Deploy)
}) {}

export class CreateProjectRequest extends NamedClass<CreateProjectRequest>("CreateProjectRequest")({
  id: ProjectId,
  plan: Plan
}) {}

export class ChangePlanRequest extends NamedClass<ChangePlanRequest>("ChangePlanRequest")({ plan: Plan }) {}

export class DeployRequest extends NamedClass<DeployRequest>("DeployRequest")({ status: DeployStatus }) {}

export class AddDomainRequest extends NamedClass<AddDomainRequest>("AddDomainRequest")({
  hostname: Schema.String.annotate({
    description: "A domain or subdomain, e.g. docs.example.com (IDN allowed)."
  })
}) {}

export class DomainList extends NamedClass<DomainList>("DomainList")({
  domains: Schema.Array(CustomDomainResource),
  config: DomainConfig
}) {}

const projectPath = { projectId: Schema.String }
const domainPath = { projectId: Schema.String, hostname: Schema.String }

const createProject = takesJsonBody(
  HttpApiEndpoint.post("createProject", "/projects", {
    payload: CreateProjectRequest,
    success: ProjectView.pipe(HttpApiSchema.status(201)),
    error: [InvalidRequest, Conflict]
  })
    .annotate(OpenApi.Summary, "Create a project (stands in for the platform's own project creation)")
    .annotate(
      OpenApi.Description,
      "409 `conflict` when any account has a project with this id; 409 `limit_reached` when the account has as many projects as its limit (100 unless the operator set `PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT`)."
    )
)

export const ListProjectsParameters = Schema.Struct({
  limit: Schema.optionalKey(limitParameter),
  after: Schema.optionalKey(textParameter(ProjectId, "must be a project id"))
})

export const Projects = Schema.Array(ProjectView).annotate({
  identifier: "Projects",
  description: "A page of the account's projects, in ascending id order."
})

const listProjects = HttpApiEndpoint.get("listProjects", "/projects", {
  query: ListProjectsParameters,
  success: Projects,
  error: InvalidRequest
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "The key's account's projects, in ascending id order")
  .annotate(
    OpenApi.Description,
    'Paged like `GET /v1/pets`: when more projects follow, the `Link` header has the `rel="next"` page. An account has at most 100 projects (`PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT`).'
  )
  .annotate(
    OpenApi.Transform,
    flow(
      describeParameters({
        limit: limitDescription("projects"),
        after: {
          value: ProjectId,
          description:
            'Keyset cursor: only projects whose id sorts after this one. Taken from the `Link rel="next"` header.'
        }
      }),
      withResponseHeaders(nextPageHeaders("projects", '</v1/projects?limit=20&after=docs>; rel="next"'))
    )
  )

const getProject = HttpApiEndpoint.get("getProject", "/projects/:projectId", {
  params: projectPath,
  success: ProjectView,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A project of the key's account (another account's is not found)")

const changePlan = takesJsonBody(
  HttpApiEndpoint.patch("changePlan", "/projects/:projectId", {
    params: projectPath,
    payload: ChangePlanRequest,
    success: ProjectView,
    error: [InvalidRequest, NotFound]
  }).annotate(OpenApi.Summary, "Change a project's plan (a downgrade to free stops serving its domains)")
)

const recordDeploy = takesJsonBody(
  HttpApiEndpoint.post("recordDeploy", "/projects/:projectId/deploys", {
    params: projectPath,
    payload: DeployRequest,
    success: ProjectView.pipe(HttpApiSchema.status(201)),
    error: [InvalidRequest, NotFound]
  }).annotate(OpenApi.Summary, "Record a deploy outcome (stands in for the deploy pipeline's callback)")
)

const listDomains = HttpApiEndpoint.get("listDomains", "/projects/:projectId/domains", {
  params: projectPath,
  success: DomainList,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A project's domains and domain config")

const addDomain = takesJsonBody(
  HttpApiEndpoint.post("addDomain", "/projects/:projectId/domains", {
    params: projectPath,
    payload: AddDomainRequest,
    success: CustomDomainResource.pipe(HttpApiSchema.status(201)),
    error: [InvalidRequest, Forbidden, NotFound, Conflict]
  })
    .annotate(OpenApi.Summary, "Add a domain: it is pending, with the DNS record to create")
    .annotate(
      OpenApi.Description,
      "A hostname another account has (or had verified within 30 days, or under its pending claim) is added too, with `ownership.required: true`: verification then needs the TXT record `ownership`. 409 `domain_in_use` when another project of this account has the hostname; 409 `domain_claimed` when it lies at or under an apex another account has claimed and proved; 409 `limit_reached` when the project has as many domains as its limit (50 unless the operator set `PETSTORE_LIMIT_DOMAINS_PER_PROJECT`)."
    )
)

const getDomain = HttpApiEndpoint.get("getDomain", "/projects/:projectId/domains/:hostname", {
  params: domainPath,
  success: CustomDomainResource,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A domain, with its verification and certificate")

const verifyDomain = HttpApiEndpoint.post("verifyDomain", "/projects/:projectId/domains/:hostname/verify", {
  params: domainPath,
  success: CustomDomainResource,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(
    OpenApi.Summary,
    "Check DNS now (and give DNS another 48 hours); within 10 seconds (the configured cool-down) of the last check, the last outcome"
  )

const reverifyDomain = HttpApiEndpoint.post(
  "reverifyDomain",
  "/projects/:projectId/domains/:hostname/reverify",
  { params: domainPath, success: CustomDomainResource, error: [NotFound, Conflict] }
)
  .middleware(Authentication)
  .annotate(
    OpenApi.Summary,
    "For a verified domain whose certificate is not issued (pending, with or without a problem, delayed or failed): check DNS again and retry issuance at once; 409 only for an issued certificate"
  )

const removeDomain = HttpApiEndpoint.delete("removeDomain", "/projects/:projectId/domains/:hostname", {
  params: domainPath,
  success: HttpApiSchema.NoContent,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "Remove a domain: it stops being served at once")

const getDomainConfig = HttpApiEndpoint.get("getDomainConfig", "/projects/:projectId/domain-config", {
  params: projectPath,
  success: DomainConfig,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "The primary hostname and the 301 redirects")

const putDomainConfig = takesJsonBody(
  HttpApiEndpoint.put("putDomainConfig", "/projects/:projectId/domain-config", {
    params: projectPath,
    payload: DomainConfig,
    success: DomainConfig,
    error: [InvalidRequest, NotFound]
  }).annotate(OpenApi.Summary, "Set the primary hostname and the 301 redirects")
)

export class ProjectsGroup extends HttpApiGroup.make("projects")
  .add(listProjects)
  .add(getProject)
  .add(createProject)
  .add(changePlan)
  .add(recordDeploy)
  .add(listDomains)
  .add(addDomain)
  .add(getDomain)
  .add(verifyDomain)
  .add(reverifyDomain)
  .add(removeDomain)
  .add(getDomainConfig)
  .add(putDomainConfig)
  .prefix("/v1") {}

export const EdgeAnswer = Schema.Union([
  Schema.Struct({ action: Schema.Literal("serve"), projectId: Schema.String }),
  Schema.Struct({ action: Schema.Literal("redirect"), location: Schema.String, status: Schema.Literal(301) })
]).annotate({ identifier: "EdgeAnswer" })

export class EdgeGroup extends HttpApiGroup.make("edge")
  .add(
    HttpApiEndpoint.get("resolveHost", "/edge/resolve", {
      query: { host: Schema.String.annotate({ description: "The requested hostname." }) },
      success: EdgeAnswer,
      error: [InvalidRequest, NotFound]
    })
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "For the serving edge: serve a project, redirect (301), or 404")
  )
  .prefix("/v1") {}
