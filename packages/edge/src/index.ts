/**
 * @petstore/edge: the serving edge of custom domains, an HTTP and an HTTPS listener in front of the
 * domain's edge decision, with HTTP-01 challenges and certificates chosen by SNI.
 */
export * as AcmeChallenge from "./AcmeChallenge.js"
export * as EdgeApps from "./EdgeApps.js"
export * as EdgeDecisionCache from "./EdgeDecisionCache.js"
export * as EdgeDecisions from "./EdgeDecisions.js"
export * as EdgeRequest from "./EdgeRequest.js"
export * as EdgeServer from "./EdgeServer.js"
export * as PlaceholderPage from "./PlaceholderPage.js"
export * as SniCertificates from "./SniCertificates.js"
export * as UnknownNameBudget from "./UnknownNameBudget.js"
