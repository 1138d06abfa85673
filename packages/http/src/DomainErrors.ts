/**
 * The custom-domain use cases' failures as the service's error bodies. Another account's project and
 * a project that does not exist read the same: 404.
 */
import { Conflict, Forbidden, InvalidRequest, NotFound } from "@petstore/api"
import type {
  DeployRequired,
  DomainNotFound,
  HostnameTaken,
  InvalidDomainRequest,
  NotReverifiable,
  PlanRequired,
  ProjectIdTaken,
  ProjectNotFound
} from "@petstore/custom-domains"
import { Effect } from "effect"

export const projectNotFound = (error: ProjectNotFound) =>
  Effect.fail(
    new NotFound({ code: "not_found", message: `no project ${JSON.stringify(error.id)}`, status: 404 })
  )

export const domainNotFound = (error: DomainNotFound) =>
  Effect.fail(
    new NotFound({
      code: "not_found",
      message: `no domain ${JSON.stringify(error.hostname)} in this project`,
      status: 404
    })
  )

export const invalidDomainRequest = (error: InvalidDomainRequest) =>
  Effect.fail(new InvalidRequest({ code: "invalid_request", message: error.message, status: 400 }))

export const planRequired = (_: PlanRequired) =>
  Effect.fail(
    new Forbidden({
      code: "plan_required",
      message: "custom domains need a paid plan (Pro or above)",
      status: 403
    })
  )

export const deployRequired = (_: DeployRequired) =>
  Effect.fail(
    new Conflict({
      code: "deploy_required",
      message: "custom domains need a successful deploy of the project",
      status: 409
    })
  )

export const hostnameTaken = (error: HostnameTaken) =>
  Effect.fail(
    new Conflict({
      code: "domain_in_use",
      message: `${error.hostname} is already a domain of a project`,
      status: 409
    })
  )

export const projectIdTaken = (error: ProjectIdTaken) =>
  Effect.fail(new Conflict({ code: "conflict", message: `id: ${error.id} is already taken`, status: 409 }))

export const notReverifiable = (error: NotReverifiable) =>
  Effect.fail(new Conflict({ code: "conflict", message: error.reason, status: 409 }))
