/**
 * The edge's question for a request's host, answered from the ports: a default hostname serves its
 * project once deployed; a custom domain serves (or redirects) when it is verified and its project is
 * paid and deployed (see `EdgeDecision`); anything else is not served.
 */

import {
  CustomDomainRepository,
  DnsName,
  normaliseHostname,
  PlatformSettings,
  reservedNamesOf
} from "@petstore/domains"
import type { StorageError } from "@petstore/kernel"
import { type ProjectId, ProjectId as ProjectIdSchema, ProjectRepository } from "@petstore/projects"
import { Effect, Option, Result, Schema } from "effect"
import type { DomainConfigRepository } from "./DomainConfigRepository.js"
import { domainConfigOf } from "./DomainConfigs.js"
import { decideForCustomDomain, decideForDefaultHostname, type EdgeDecision } from "./EdgeDecision.js"

/**
 * The edge's decision for `host` with the project it was taken from: the project whose domain it is,
 * or that a default hostname names (whether or not it exists). Whoever keeps decisions drops them
 * when that project changes.
 */
export interface EdgeResolution {
  readonly decision: EdgeDecision
  readonly projectId: ProjectId | undefined
}

/** `resolveEdge`, with the project the decision depends on. */
export const resolveEdgeFrom = (host: string): Effect.Effect<EdgeResolution, StorageError, EdgeLookups> =>
  Effect.gen(function* () {
    const none: EdgeDecision = { action: "none" }
    const settings = yield* PlatformSettings
    const name = DnsName.fromHost(host)
    const projects = yield* ProjectRepository
    const label = DnsName.relativeTo(name, settings.platformDomain)
    if (Option.isSome(label)) {
      const id = Schema.decodeOption(ProjectIdSchema)(label.value)
      if (Option.isNone(id)) return { decision: none, projectId: undefined }
      const project = yield* projects.findById(id.value)
      return {
        decision: Option.match(project, { onNone: () => none, onSome: decideForDefaultHostname }),
        projectId: id.value
      }
    }
    const hostname = normaliseHostname(name, reservedNamesOf(settings))
    if (Result.isFailure(hostname)) return { decision: none, projectId: undefined }
    const domain = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.findVerified(hostname.success)
    )
    if (Option.isNone(domain)) return { decision: none, projectId: undefined }
    const projectId = domain.value.projectId
    const project = yield* projects.findById(projectId)
    if (Option.isNone(project)) return { decision: none, projectId }
    return {
      decision: decideForCustomDomain(domain.value, project.value, yield* domainConfigOf(project.value.id)),
      projectId
    }
  })

/** What the edge's decision reads. */
export type EdgeLookups =
  | PlatformSettings
  | ProjectRepository
  | CustomDomainRepository
  | DomainConfigRepository

/**
 * The edge's question: what to do with a request for `host`, a Host header or TLS server name (see
 * `DnsName.fromHost`: a port or trailing dot is ignored, an internationalised name may be in either form).
 */
export const resolveEdge = (host: string): Effect.Effect<EdgeDecision, StorageError, EdgeLookups> =>
  Effect.map(resolveEdgeFrom(host), (resolution) => resolution.decision)
