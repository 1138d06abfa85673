/**
 * Custom domains for published documentation sites: projects (standing in for the platform's own),
 * their deploys, their domains and domain config. Every operation needs a key and sees only the key's
 * own account's projects.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Deploy, DeployStatus, DomainConfig, DomainResource, Plan, ProjectId } from "@petstore/domain"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { takesJsonBody } from "./BodyOperation.js"

export class ProjectView extends Schema.Class<ProjectView>("Project")({
  id: ProjectId,
  plan: Plan,
  defaultHostname: Schema.String,
  lastDeploy: Schema.NullOr(Deploy)
}) {}

export class CreateProjectRequest extends Schema.Class<CreateProjectRequest>("CreateProjectRequest")({
  id: ProjectId,
  plan: Plan
}) {}

export class ChangePlanRequest extends Schema.Class<ChangePlanRequest>("ChangePlanRequest")({ plan: Plan }) {}

export class DeployRequest extends Schema.Class<DeployRequest>("DeployRequest")({ status: DeployStatus }) {}

export class AddDomainRequest extends Schema.Class<AddDomainRequest>("AddDomainRequest")({
  hostname: Schema.String.annotations({
    description: "A domain or subdomain, e.g. docs.example.com (IDN allowed)."
  })
}) {}

export class DomainList extends Schema.Class<DomainList>("DomainList")({
  domains: Schema.Array(DomainResource),
  config: DomainConfig
}) {}

const projectPath = Schema.Struct({ projectId: Schema.String })
const domainPath = Schema.Struct({ projectId: Schema.String, hostname: Schema.String })

const createProject = takesJsonBody(
  HttpApiEndpoint.post("createProject", "/projects")
    .setPayload(CreateProjectRequest)
    .addSuccess(ProjectView, { status: 201 })
    .addError(InvalidRequest)
    .addError(Conflict)
    .annotate(OpenApi.Summary, "Create a project (stands in for the platform's own project creation)")
)

const changePlan = takesJsonBody(
  HttpApiEndpoint.patch("changePlan", "/projects/:projectId")
    .setPath(projectPath)
    .setPayload(ChangePlanRequest)
    .addSuccess(ProjectView)
    .addError(InvalidRequest)
    .addError(NotFound)
    .annotate(OpenApi.Summary, "Change a project's plan (a downgrade to free stops serving its domains)")
)

const recordDeploy = takesJsonBody(
  HttpApiEndpoint.post("recordDeploy", "/projects/:projectId/deploys")
    .setPath(projectPath)
    .setPayload(DeployRequest)
    .addSuccess(ProjectView, { status: 201 })
    .addError(InvalidRequest)
    .addError(NotFound)
    .annotate(OpenApi.Summary, "Record a deploy outcome (stands in for the deploy pipeline's callback)")
)

const listDomains = HttpApiEndpoint.get("listDomains", "/projects/:projectId/domains")
  .setPath(projectPath)
  .addSuccess(DomainList)
  .addError(NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A project's domains and domain config")

const addDomain = takesJsonBody(
  HttpApiEndpoint.post("addDomain", "/projects/:projectId/domains")
    .setPath(projectPath)
    .setPayload(AddDomainRequest)
    .addSuccess(DomainResource, { status: 201 })
    .addError(InvalidRequest)
    .addError(Forbidden)
    .addError(NotFound)
    .addError(Conflict)
    .annotate(OpenApi.Summary, "Add a domain: it is pending, with the DNS record to create")
)

const getDomain = HttpApiEndpoint.get("getDomain", "/projects/:projectId/domains/:hostname")
  .setPath(domainPath)
  .addSuccess(DomainResource)
  .addError(NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A domain, with its verification and certificate")

const verifyDomain = HttpApiEndpoint.post("verifyDomain", "/projects/:projectId/domains/:hostname/verify")
  .setPath(domainPath)
  .addSuccess(DomainResource)
  .addError(NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "Check DNS now (and give DNS another 48 hours)")

const reverifyDomain = HttpApiEndpoint.post(
  "reverifyDomain",
  "/projects/:projectId/domains/:hostname/reverify"
)
  .setPath(domainPath)
  .addSuccess(DomainResource)
  .addError(NotFound)
  .addError(Conflict)
  .middleware(Authentication)
  .annotate(
    OpenApi.Summary,
    "For a verified domain whose certificate is delayed or failed: check DNS again and restart issuance"
  )

const removeDomain = HttpApiEndpoint.del("removeDomain", "/projects/:projectId/domains/:hostname")
  .setPath(domainPath)
  .addSuccess(HttpApiSchema.NoContent)
  .addError(NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "Remove a domain: it stops being served at once")

const getDomainConfig = HttpApiEndpoint.get("getDomainConfig", "/projects/:projectId/domain-config")
  .setPath(projectPath)
  .addSuccess(DomainConfig)
  .addError(NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "The primary hostname and the 301 redirects")

const putDomainConfig = takesJsonBody(
  HttpApiEndpoint.put("putDomainConfig", "/projects/:projectId/domain-config")
    .setPath(projectPath)
    .setPayload(DomainConfig)
    .addSuccess(DomainConfig)
    .addError(InvalidRequest)
    .addError(NotFound)
    .annotate(OpenApi.Summary, "Set the primary hostname and the 301 redirects")
)

export class ProjectsGroup extends HttpApiGroup.make("projects")
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

export const EdgeAnswer = Schema.Union(
  Schema.Struct({ action: Schema.Literal("serve"), projectId: Schema.String }),
  Schema.Struct({ action: Schema.Literal("redirect"), location: Schema.String, status: Schema.Literal(301) })
).annotations({ identifier: "EdgeAnswer" })

export class EdgeGroup extends HttpApiGroup.make("edge")
  .add(
    HttpApiEndpoint.get("resolveHost", "/edge/resolve")
      .setUrlParams(
        Schema.Struct({ host: Schema.String.annotations({ description: "The requested hostname." }) })
      )
      .addSuccess(EdgeAnswer)
      .addError(InvalidRequest)
      .addError(NotFound)
      .middleware(Authentication)
      .annotate(OpenApi.Summary, "For the serving edge: serve a project, redirect (301), or 404")
  )
  .prefix("/v1") {}
