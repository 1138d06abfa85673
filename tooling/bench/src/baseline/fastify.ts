/**
 * The yardstick: the product's animal operations as a plain Fastify 5 application on a `pg` pool,
 * written the way a Fastify user would (route-level `onRequest` hooks for the key and the body checks,
 * a catch-all string body parser, response schemas compiled by fast-json-stringify), answering
 * exactly what the product answers. Reads `DATABASE_URL`, `PORT`, `HOST` and `BENCH_FASTIFY_LOG`
 * (`pino`: one JSON request line per answered request on stdout, the reference; else no logger).
 */
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify"
import {
  type Answer,
  authenticate,
  bodyPrecheck,
  createPet,
  deprecated,
  getPet,
  getPetDeprecationHeaders,
  internalError,
  listPets,
  makePool,
  maxRequestBodyBytes,
  parsePayload,
  payloadTooLarge,
  requestIdFor,
  routeNotFound,
  serverSettings
} from "./PetsBaseline.js"
import { loggerOptions, requestLogMode, writeRequestLine } from "./RequestLogLine.js"

declare module "fastify" {
  interface FastifyRequest {
    /** The account of the API key, set by the key check. */
    account: string
  }
}

const settings = serverSettings("petstore-bench-fastify")
const pool = makePool(settings.databaseUrl, settings.applicationName)

const logMode = requestLogMode(process.env.BENCH_FASTIFY_LOG)

const app = Fastify({
  ...loggerOptions(logMode),
  keepAliveTimeout: 5_000,
  requestTimeout: 15_000,
  bodyLimit: maxRequestBodyBytes,
  routerOptions: { ignoreTrailingSlash: true },
  genReqId: (request) => requestIdFor(request.headers["x-request-id"]),
  // A path Fastify cannot decode gets the product's answer for a route it does not match.
  frameworkErrors: (_error, request, response) => {
    response.header("x-request-id", request.id)
    reply(response, routeNotFound(request.method, new URL(request.url, "http://localhost").pathname))
    if (logMode === "pino") writeRequestLine(request, response)
  }
})

const petSchema = {
  type: "object",
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    categoryId: { type: "integer" },
    status: { type: "string" }
  },
  required: ["id", "name", "categoryId", "status"]
} as const

const reply = (response: FastifyReply, answer: Answer): FastifyReply =>
  response.code(answer.status).headers(answer.headers).send(answer.body)

const requireKey = async (request: FastifyRequest, response: FastifyReply) => {
  const caller = await authenticate(pool, request.headers.authorization)
  if (caller._tag === "Refused") return reply(response, caller.answer)
  request.account = caller.account
  return undefined
}

const requireJsonBody = async (request: FastifyRequest, response: FastifyReply) => {
  const refused = bodyPrecheck(request.headers)
  return refused === undefined ? undefined : reply(response, refused)
}

const markDeprecated = async (_request: FastifyRequest, response: FastifyReply) => {
  response.headers(getPetDeprecationHeaders)
}

app.decorateRequest("account", "")

app.addHook("onRequest", async (request, response) => {
  response.header("x-request-id", request.id)
})

// Every body arrives as text (within `bodyLimit`); the handler parses it, as the product does.
app.removeAllContentTypeParsers()
app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body))

type Query = Record<string, string | Array<string> | undefined>

app.get<{ Querystring: Query }>(
  "/v1/pets",
  { onRequest: requireKey, schema: { response: { 200: { type: "array", items: petSchema } } } },
  async (request, response) =>
    reply(
      response,
      await listPets(pool, (name) => {
        const value = request.query[name]
        return value === undefined ? [] : Array.isArray(value) ? value : [value]
      })
    )
)

app.post(
  "/v1/pets",
  { onRequest: [requireKey, requireJsonBody], schema: { response: { 201: petSchema } } },
  async (request, response) => {
    const payload = parsePayload(
      request.headers["content-type"],
      typeof request.body === "string" ? request.body : ""
    )
    if (!payload.ok) return reply(response, payload.answer)
    return reply(
      response,
      await createPet(pool, request.account, payload.value, request.headers["idempotency-key"])
    )
  }
)

app.get<{ Params: { petId: string } }>(
  "/v1/pets/:petId",
  { onRequest: [markDeprecated, requireKey], schema: { response: { 200: petSchema } } },
  async (request, response) => reply(response, await getPet(pool, request.params.petId))
)

app.setNotFoundHandler(async (request, response) =>
  reply(response, routeNotFound(request.method, new URL(request.url, "http://localhost").pathname))
)

app.setErrorHandler(async (error: { readonly code?: string }, request, response) => {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return reply(response, payloadTooLarge)
  const answer = request.routeOptions.url === "/v1/pets/:petId" ? deprecated(internalError) : internalError
  return reply(response, answer)
})

await app.listen({ port: settings.port, host: settings.host })

const stop = () => {
  void app.close().then(() => pool.end())
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
