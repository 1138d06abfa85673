/**
 * The custom-domain use cases' failures as the service's error bodies. Another account's project (or
 * claim, or webhook) and one that does not exist read the same: 404.
 */
import { apiError, Conflict, Forbidden, InvalidRequest, NotFound } from "@petstore/api"
import type {
  DeployRequired,
  DomainNotFound,
  HostnameTaken,
  InvalidDomainRequest,
  NotReverifiable,
  PlanRequired
} from "@petstore/domains"
import type { LimitReached } from "@petstore/kernel"
import type { ClaimNotFound, DomainClaimed } from "@petstore/ownership"
import type { ProjectIdTaken, ProjectNotFound } from "@petstore/projects"
import type { WebhookNotFound } from "@petstore/webhooks"
import { Effect } from "effect"

export const projectNotFound = (error: ProjectNotFound) =>
  Effect.fail(apiError(NotFound, "not_found", `no project ${JSON.stringify(error.id)}`))

export const domainNotFound = (error: DomainNotFound) =>
  Effect.fail(apiError(NotFound, "not_found", `no domain ${JSON.stringify(error.hostname)} in this project`))

export const invalidDomainRequest = (error: InvalidDomainRequest) =>
  Effect.fail(apiError(InvalidRequest, "invalid_request", error.message))

export const planRequired = (_: PlanRequired) =>
  Effect.fail(apiError(Forbidden, "plan_required", "custom domains need a paid plan (Pro or above)"))

export const deployRequired = (_: DeployRequired) =>
  Effect.fail(apiError(Conflict, "deploy_required", "custom domains need a successful deploy of the project"))

export const hostnameTaken = (error: HostnameTaken) =>
  Effect.fail(
    apiError(Conflict, "domain_in_use", `${error.hostname} is already a domain of a project of this account`)
  )

export const domainClaimed = (error: DomainClaimed) =>
  Effect.fail(
    apiError(
      Conflict,
      "domain_claimed",
      `${error.hostname} lies under a domain another account has claimed and proved it owns`
    )
  )

export const claimNotFound = (error: ClaimNotFound) =>
  Effect.fail(apiError(NotFound, "not_found", `no claim of ${JSON.stringify(error.apex)}`))

export const projectIdTaken = (error: ProjectIdTaken) =>
  Effect.fail(apiError(Conflict, "conflict", `id: ${error.id} is already taken`))

export const notReverifiable = (error: NotReverifiable) =>
  Effect.fail(apiError(Conflict, "conflict", error.reason))

export const webhookNotFound = (error: WebhookNotFound) =>
  Effect.fail(apiError(NotFound, "not_found", `no webhook ${JSON.stringify(error.id)} in this project`))

export const limitReached = (error: LimitReached) =>
  Effect.fail(apiError(Conflict, "limit_reached", `limit reached: at most ${error.value} ${error.limit}`))
