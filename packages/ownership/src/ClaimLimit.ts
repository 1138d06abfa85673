/**
 * What refuses a new claim at its account's limits (contract section 9), from the counts a store made
 * under the same lock (or in the same atomic update) as its insert: every store refuses alike.
 */
import { type LimitReached, type LimitValues, limitReached } from "@petstore/kernel"

/**
 * The refusal of one more (pending) claim of an account that has `claims.total` claims, `claims.pending`
 * of them pending; undefined: within both limits.
 */
export const claimLimitRefusal = (
  claims: { readonly total: number; readonly pending: number },
  limits: Pick<LimitValues, "claimsPerAccount" | "pendingClaimsPerAccount">
): LimitReached | undefined => {
  if (claims.total >= limits.claimsPerAccount)
    return limitReached("claimsPerAccount", limits.claimsPerAccount)
  if (claims.pending >= limits.pendingClaimsPerAccount) {
    return limitReached("pendingClaimsPerAccount", limits.pendingClaimsPerAccount)
  }
  return undefined
}
