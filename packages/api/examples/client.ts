/**
 * The typed client, derived from the contract the server runs: requests are encoded and answers
 * decoded by the same schemas, and every error answer is an error body of its status's class. Here the
 * service is a stand-in `HttpClient` answering in process; against a running service, provide
 * `FetchHttpClient.layer` (from `effect/http/FetchHttpClient`) instead.
 */
import { makePetstoreClient, NotFound, Unauthorized } from "@petstore/api"
import { ListLimit } from "@petstore/catalogue"
import { Effect, Layer } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientResponse from "effect/http/HttpClientResponse"

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

// What the service would answer, by path; the key must be `pk_live_example`.
const StandIn = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request, url) => {
    const authorized = request.headers.authorization === "Bearer pk_live_example"
    const answer = !authorized
      ? json({ code: "unauthorized", message: "an API key is required", status: 401 }, 401)
      : url.pathname === "/v1/pets"
        ? json([{ id: 1, name: "Rex", categoryId: 1, status: "available" }], 200)
        : json({ code: "not_found", message: `no animal at ${url.pathname}`, status: 404 }, 404)
    return Effect.succeed(HttpClientResponse.fromWeb(request, answer))
  })
)

const program = Effect.gen(function* () {
  const client = yield* makePetstoreClient({ baseUrl: "http://petstore.test", apiKey: "pk_live_example" })
  const pets = yield* client.pets.listPets({ query: { status: "available", limit: ListLimit.make(10) } })
  console.log(pets.map((pet) => `${pet.id} ${pet.name} (${pet.status})`))

  const missing = yield* Effect.flip(client.pets.getPet({ params: { petId: "7" } }))
  console.log(missing instanceof NotFound ? [missing.status, missing.code, missing.message] : missing)

  const anonymous = yield* makePetstoreClient({ baseUrl: "http://petstore.test" })
  const refused = yield* Effect.flip(anonymous.pets.listPets({ query: {} }))
  console.log(refused instanceof Unauthorized ? refused.code : refused)
})

Effect.runPromise(program.pipe(Effect.provide(StandIn)))

// Output:
// [ '1 Rex (available)' ]
// [ 404, 'not_found', 'no animal at /v1/pets/7' ]
// unauthorized
