/**
 * What refuses a new domain at its project's limit (contract section 9), from the count a store made
 * under the same lock (or in the same atomic update) as its insert: every store refuses alike.
 */
import { type LimitReached, type LimitValues, limitReached } from "@petstore/kernel"

/** The refusal of one more domain in a project that has `domains` already; undefined: within the limit. */
export const domainLimitRefusal = (
  domains: number,
  limits: Pick<LimitValues, "domainsPerProject">
): LimitReached | undefined =>
  domains >= limits.domainsPerProject
    ? limitReached("domainsPerProject", limits.domainsPerProject)
    : undefined
