/**
 * The limits on what one account's keys may grow (contract section 9), as the operator sets them:
 * one variable per limit, each an integer from 1 to 1,000,000, the contract's default when unset.
 */
import { defaultLimits, type LimitValues } from "@petstore/kernel"
import { Config, Schema } from "effect"

const LimitValue = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: 1_000_000 }, { message: "must be an integer from 1 to 1000000" })
)

/** The variable that sets each limit. */
export const limitVariables: { readonly [K in keyof LimitValues]: string } = {
  projectsPerAccount: "PETSTORE_LIMIT_PROJECTS_PER_ACCOUNT",
  domainsPerProject: "PETSTORE_LIMIT_DOMAINS_PER_PROJECT",
  webhooksPerProject: "PETSTORE_LIMIT_WEBHOOKS_PER_PROJECT",
  claimsPerAccount: "PETSTORE_LIMIT_CLAIMS_PER_ACCOUNT",
  pendingClaimsPerAccount: "PETSTORE_LIMIT_PENDING_CLAIMS_PER_ACCOUNT",
  uploadingDeploysPerProject: "PETSTORE_LIMIT_UPLOADING_DEPLOYS_PER_PROJECT"
}

const limit = (name: keyof LimitValues) =>
  Config.schema(LimitValue, limitVariables[name]).pipe(Config.withDefault(defaultLimits[name]))

export const LimitsConfig: Config.Config<LimitValues> = Config.all({
  projectsPerAccount: limit("projectsPerAccount"),
  domainsPerProject: limit("domainsPerProject"),
  webhooksPerProject: limit("webhooksPerProject"),
  claimsPerAccount: limit("claimsPerAccount"),
  pendingClaimsPerAccount: limit("pendingClaimsPerAccount"),
  uploadingDeploysPerProject: limit("uploadingDeploysPerProject")
})
