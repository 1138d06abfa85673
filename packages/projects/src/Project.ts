/**
 * A documentation project, owned by an account, published at `<id>.<platform domain>` by default.
 */

import { AccountName, Timestamp } from "@petstore/kernel"
import { Schema } from "effect"
import { Plan } from "./Plan.js"

/**
 * The label of the project's default hostname, so a DNS label: letters, digits and inner hyphens, 1 to
 * 63 of them (RFC 1035 §2.3.4), lower case as DNS compares names.
 */
const projectIdPattern = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

export const ProjectId = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(projectIdPattern, {
      message: "must be 1 to 63 lower-case letters, digits or inner hyphens",
      toJsonSchema: () => ({ pattern: projectIdPattern.source, minLength: 1, maxLength: 63 })
    })
  ),
  Schema.brand("ProjectId"),
  Schema.annotate({
    identifier: "ProjectId",
    description: "The project's slug, also the label of its default hostname."
  })
)
export type ProjectId = typeof ProjectId.Type

export const DeployStatus = Schema.Literals(["succeeded", "failed"]).annotate({
  message: "must be one of succeeded, failed"
})
export type DeployStatus = typeof DeployStatus.Type

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class Deploy extends Schema.Class<Deploy>("Deploy")(
  Schema.Struct({ status: DeployStatus, at: Timestamp }).annotate({ identifier: "Deploy" })
) {}

export class Project extends Schema.Class<Project>("ProjectRecord")(
  Schema.Struct({
    id: ProjectId,
    account: AccountName,
    plan: Plan,
    lastDeploy: Schema.NullOr(Deploy),
    /** A failed deploy leaves the previous successful one online, so this is what "deployed" means. */
    lastSucceededDeployAt: Schema.NullOr(Timestamp),
    createdAt: Timestamp
  }).annotate({ identifier: "ProjectRecord" })
) {}

/** The platform subdomain a project is published at. */
export const defaultHostnameOf = (id: ProjectId, platformDomain: string): string => `${id}.${platformDomain}`

/** Custom domains need a project that has been deployed successfully. */
export const hasSucceededDeploy = (project: Project): boolean => project.lastSucceededDeployAt !== null

/** The project after a deploy finished with `status` at `at`. */
export const recordDeploy = (project: Project, deploy: Deploy): Project =>
  new Project({
    ...project,
    lastDeploy: deploy,
    lastSucceededDeployAt: deploy.status === "succeeded" ? deploy.at : project.lastSucceededDeployAt
  })
