/**
 * The claim handlers: each calls one claim use case as the key's account and maps its failures.
 * Claiming an apex the account has already claimed answers the existing claim, with 200 rather than
 * 201: the class of the view returned chooses the status.
 */
import { ClaimList, ClaimView, CurrentCaller, NewClaimView, PetstoreApi } from "@petstore/api"
import { type Claim, createClaim, deleteClaim, getClaim, listClaims, verifyClaim } from "@petstore/ownership"
import { Effect } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { claimNotFound, invalidDomainRequest, limitReached } from "./DomainErrors.js"
import { storageUnavailable } from "./StorageUnavailable.js"

/**
 * What a claim's account sees of it: when it was last checked (the cool-down of Verify runs from
 * then), none of the service's bookkeeping (account, next check, version).
 */
const publicFields = (claim: Claim) => ({
  apex: claim.apex,
  status: claim.status,
  txt: claim.txt,
  verifiedAt: claim.verifiedAt,
  lastCheckedAt: claim.lastCheckedAt
})

const view = (claim: Claim) => new ClaimView(publicFields(claim))

const callerAccount = Effect.map(CurrentCaller, (caller) => caller.account)

const common = { ClaimNotFound: claimNotFound, StorageError: storageUnavailable } as const

export const ClaimsHandlers = HttpApiBuilder.group(PetstoreApi, "claims", (handlers) =>
  handlers
    .handle("createClaim", ({ payload }) =>
      Effect.flatMap(callerAccount, (account) => createClaim(account, payload.apex)).pipe(
        Effect.map(({ claim, created }) => (created ? new NewClaimView(publicFields(claim)) : view(claim))),
        Effect.catchTags({
          InvalidDomainRequest: invalidDomainRequest,
          LimitReached: limitReached,
          StorageError: storageUnavailable
        })
      )
    )
    .handle("listClaims", () =>
      Effect.flatMap(callerAccount, listClaims).pipe(
        Effect.map((claims) => new ClaimList({ claims: claims.map(view) })),
        Effect.catchTag("StorageError", storageUnavailable)
      )
    )
    .handle("getClaim", ({ params }) =>
      Effect.flatMap(callerAccount, (account) => getClaim(account, params.apex)).pipe(
        Effect.map(view),
        Effect.catchTags(common)
      )
    )
    .handle("deleteClaim", ({ params }) =>
      Effect.flatMap(callerAccount, (account) => deleteClaim(account, params.apex)).pipe(
        Effect.catchTags(common)
      )
    )
    .handle("verifyClaim", ({ params }) =>
      Effect.flatMap(callerAccount, (account) => verifyClaim(account, params.apex)).pipe(
        Effect.map(view),
        Effect.catchTags(common)
      )
    )
)
