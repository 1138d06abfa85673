/**
 * @petstore/serving: what the edge serves: a project's domain config (primary and redirects) and its port,
 * the edge's decision for a host, and how caches of those decisions hear of changes (ServingChanges). Pure:
 * no I/O and no adapter; adapters implement the ports.
 */
export {
  DomainConfig,
  DomainRedirect,
  defaultDomainConfig,
  normaliseDomainConfig,
  redirectStatus,
  validateDomainConfig,
  withoutDomain
} from "./DomainConfig.js"
export { DomainConfigRepository } from "./DomainConfigRepository.js"
export { domainConfigOf, getDomainConfig, putDomainConfig } from "./DomainConfigs.js"
export { decideForCustomDomain, decideForDefaultHostname, type EdgeDecision } from "./EdgeDecision.js"
export { type EdgeLookups, type EdgeResolution, resolveEdge, resolveEdgeFrom } from "./EdgeResolution.js"
export {
  announcingCertificates,
  announcingCustomDomains,
  announcingDecidedWrites,
  announcingDomainConfigs,
  announcingProjects,
  type HubOptions,
  inProcessServingChangeHubLayer,
  makeServingChangeHub,
  ServingChangeHub,
  servingChangesLayer
} from "./ServingChangeHub.js"
export { type ServingChange, type ServingChangeListener, ServingChanges } from "./ServingChanges.js"
