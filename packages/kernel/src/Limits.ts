/**
 * How far one account may grow what its keys create (contract section 9): every count a key can grow
 * has a limit, so that no single key can make the service slower or larger for everyone else. Past
 * a limit the answer is `LimitReached`, naming the limit and its value. Stores check a count and add
 * the row in one step, so concurrent requests at a limit never overshoot it.
 */
import { Context } from "effect"
import { LimitReached } from "./Errors.js"

export interface LimitValues {
  readonly projectsPerAccount: number
  readonly domainsPerProject: number
  readonly webhooksPerProject: number
  readonly claimsPerAccount: number
  /** Of the account's claims, how many may be pending (not yet proved) at once. */
  readonly pendingClaimsPerAccount: number
  /** Deploys `uploading` at once per project (contract section 7). */
  readonly uploadingDeploysPerProject: number
}

/** The contract's defaults. */
export const defaultLimits: LimitValues = {
  projectsPerAccount: 100,
  domainsPerProject: 50,
  webhooksPerProject: 10,
  claimsPerAccount: 20,
  pendingClaimsPerAccount: 5,
  uploadingDeploysPerProject: 3
}

/** How each limit is named in the answer that refuses a request past it. */
export const limitNames: { readonly [K in keyof LimitValues]: string } = {
  projectsPerAccount: "projects per account",
  domainsPerProject: "domains per project",
  webhooksPerProject: "webhooks per project",
  claimsPerAccount: "claims per account",
  pendingClaimsPerAccount: "pending claims per account",
  uploadingDeploysPerProject: "uploading deploys per project"
}

/**
 * The limits in force: the operator's settings (`Layer.succeed(Limits, values)`), {@link defaultLimits}
 * when the application gives none.
 */
export const Limits = Context.Reference<LimitValues>("@petstore/kernel/Limits", {
  defaultValue: () => defaultLimits
})

/** The refusal past the limit `name`, whose value in force is `value`. */
export const limitReached = (name: keyof LimitValues, value: number): LimitReached =>
  new LimitReached({ limit: limitNames[name], value })
