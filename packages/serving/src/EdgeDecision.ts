/**
 * What the serving edge does with a request for a hostname: serve a project, redirect (301) to its
 * primary, or nothing (404). Only verified domains of a paid, deployed project are served.
 */
import type { CustomDomain } from "@petstore/domains"
import { hasSucceededDeploy, isPaidPlan, type Project } from "@petstore/projects"
import type { DomainConfig } from "./DomainConfig.js"
import { redirectStatus } from "./DomainConfig.js"

export type EdgeDecision =
  | { readonly action: "serve"; readonly projectId: string }
  | { readonly action: "redirect"; readonly location: string; readonly status: typeof redirectStatus }
  | { readonly action: "none" }

const none: EdgeDecision = { action: "none" }

/** For a project's default hostname: served once the project has been deployed. */
export const decideForDefaultHostname = (project: Project): EdgeDecision =>
  hasSucceededDeploy(project) ? { action: "serve", projectId: project.id } : none

/** For a custom domain of `project`. */
export const decideForCustomDomain = (
  domain: CustomDomain,
  project: Project,
  config: DomainConfig
): EdgeDecision => {
  if (domain.status !== "verified" || !isPaidPlan(project.plan) || !hasSucceededDeploy(project)) return none
  const redirect = config.redirects.find((entry) => entry.from === domain.hostname)
  return redirect === undefined
    ? { action: "serve", projectId: project.id }
    : { action: "redirect", location: `https://${redirect.to}/`, status: redirectStatus }
}
