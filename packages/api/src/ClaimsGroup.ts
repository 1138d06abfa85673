/**
 * Claims of an apex (contract section 4): an account proves with a TXT record that it owns a
 * registrable domain, and from then on only that account can add or keep names at or under it. Every
 * operation needs a key and sees only the key's own account's claims: another account's claim reads
 * as one that does not exist (404).
 */
import { ClaimResource } from "@petstore/ownership"
import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { Conflict, InvalidRequest, NotFound } from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import { takesJsonBody } from "./BodyOperation.js"
import { NamedClass } from "./NamedClass.js"

/**
 * The wire form of both claim classes below: one schema, so the OpenAPI document names one `Claim`
 * for a claim answered 200 and one answered 201.
 */
const ClaimWire = Schema.Struct(ClaimResource.fields).annotate({
  identifier: "Claim",
  description: "An account's claim of an apex, proved by the TXT record `txt`."
})

/** A claim as its account sees it (the domain's `ClaimResource`). */
export class ClaimView extends Schema.Class<ClaimView>("Claim")(ClaimWire) {}

/**
 * The same claim, answered 201 because the request created it. A class of its own because the answer's
 * status is chosen by the class of the value a handler returns.
 */
export class NewClaimView extends Schema.Class<NewClaimView>("NewClaim")(ClaimWire) {}

export class CreateClaimRequest extends NamedClass<CreateClaimRequest>("CreateClaimRequest")({
  apex: Schema.String.annotate({
    description: "A registrable domain, e.g. example.com or example.co.uk (IDN allowed)."
  })
}) {}

export class ClaimList extends NamedClass<ClaimList>("ClaimList")({ claims: Schema.Array(ClaimView) }) {}

const claimPath = { apex: Schema.String.annotate({ description: "The claimed apex, e.g. example.com." }) }

const createClaim = takesJsonBody(
  HttpApiEndpoint.post("createClaim", "/claims", {
    payload: CreateClaimRequest,
    success: [NewClaimView.pipe(HttpApiSchema.status(201)), ClaimView],
    error: [InvalidRequest, Conflict]
  })
    .annotate(OpenApi.Summary, "Claim an apex: pending until its TXT record is found by Verify")
    .annotate(
      OpenApi.Description,
      "201 with the new claim; 200 with the existing one when the account has already claimed this apex. 409 `limit_reached` when the account has as many claims as its limit (20 unless the operator set `PETSTORE_LIMIT_CLAIMS_PER_ACCOUNT`), or as many pending ones (5 unless `PETSTORE_LIMIT_PENDING_CLAIMS_PER_ACCOUNT`)."
    )
)

const listClaims = HttpApiEndpoint.get("listClaims", "/claims", { success: ClaimList })
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "The account's claims, oldest first")

const getClaim = HttpApiEndpoint.get("getClaim", "/claims/:apex", {
  params: claimPath,
  success: ClaimView,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "A claim of the account")

const deleteClaim = HttpApiEndpoint.delete("deleteClaim", "/claims/:apex", {
  params: claimPath,
  success: HttpApiSchema.NoContent,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(OpenApi.Summary, "Delete a claim: the names under its apex are open to other accounts again")

const verifyClaim = HttpApiEndpoint.post("verifyClaim", "/claims/:apex/verify", {
  params: claimPath,
  success: ClaimView,
  error: NotFound
})
  .middleware(Authentication)
  .annotate(
    OpenApi.Summary,
    "Look the claim's TXT record up now: found, the claim is verified and takes the apex for the account; within 10 seconds (the configured cool-down) of the last lookup, the last outcome"
  )

export class ClaimsGroup extends HttpApiGroup.make("claims")
  .add(createClaim)
  .add(listClaims)
  .add(getClaim)
  .add(deleteClaim)
  .add(verifyClaim)
  .prefix("/v1") {}
