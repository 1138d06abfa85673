/**
 * The contract without a server: the OpenAPI document it generates, the error bodies it answers
 * with, the query parameters it decodes, the deprecation headers of `GET /v1/pets/{petId}`, and the
 * file through which a running server offers its key administration.
 */
import {
  ApiKeyAdminEndpoint,
  apiError,
  Conflict,
  getPetDeprecationHeaders,
  ListPetsParameters,
  maxRequestBodyBytes,
  PetstoreApi,
  unavailableRetryAfterSeconds
} from "@petstore/api"
import { Result, Schema, SchemaIssue } from "effect"
import * as OpenApi from "effect/http-api/OpenApi"

const document = OpenApi.fromApi(PetstoreApi)
console.log(document.info.title, document.info.version, Object.keys(document.paths).length)
console.log(Object.keys(document.paths["/v1/pets"] ?? {}))

// Every error is `{code, message, status}`; the status is the class's own.
const conflict = apiError(Conflict, "domain_in_use", "docs.example.com is used by another project")
console.log(JSON.stringify(Schema.encodeSync(Conflict)(conflict)))
console.log(maxRequestBodyBytes, unavailableRetryAfterSeconds)

// Query parameters are canonical decimal text, refused with the rule of their value.
const query = Schema.decodeUnknownResult(ListPetsParameters)
console.log(Result.getOrThrow(query({ limit: "20", status: "sold" })))
for (const refused of [{ limit: "500" }, { limit: "020" }, { after: ["1", "2"] }]) {
  const result = query(refused)
  if (Result.isFailure(result)) {
    const [issue] = SchemaIssue.makeFormatterStandardSchemaV1()(result.failure.issue).issues
    console.log(`${issue?.path?.join(".")}: ${issue?.message}`)
  }
}

console.log(getPetDeprecationHeaders)

const endpoint = Schema.decodeUnknownSync(ApiKeyAdminEndpoint.AdminEndpointJson)(
  JSON.stringify({ port: 41234, token: "a".repeat(43) })
)
console.log(ApiKeyAdminEndpoint.adminEndpointFileName, endpoint.port)

// Output:
// Petstore 1.0.0 21
// [ 'get', 'post' ]
// {"code":"domain_in_use","message":"docs.example.com is used by another project","status":409}
// 65536 5
// { limit: 20, status: 'sold' }
// limit: must be an integer from 1 to 100
// limit: must be an integer from 1 to 100
// after: must be an integer from 1 to 9007199254740991
// {
//   deprecation: '@1795564800',
//   sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
//   link: '</v1/pets>; rel="successor-version"'
// }
// petstore-admin.json 41234
