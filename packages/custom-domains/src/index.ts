/**
 * @petstore/custom-domains: the owner's operations on a custom domain (add, Verify, Re-verify, Remove, list)
 * and the worker's round of domain checks, composed from projects, domains, ownership, certificates and
 * serving. Pure: no I/O and no adapter; adapters implement the ports.
 */
export { addDomain } from "./AddDomain.js"
export { checkDueCustomDomains, workOnCustomDomain } from "./CustomDomainChecks.js"
export { listDomains } from "./ListDomains.js"
export { getDomain } from "./OwnedDomains.js"
export { removeDomain } from "./RemoveDomain.js"
export { reverifyDomain } from "./ReverifyDomain.js"
export { verifyNow } from "./VerifyDomain.js"
