/**
 * The practical limit: the product's animal operations on bare `node:http` and a `pg` pool, with no
 * framework at all (routing by regular expression, JSON by hand). Reads `DATABASE_URL` and `PORT`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import {
  type Answer,
  authenticate,
  bodyPrecheck,
  createPet,
  deprecated,
  getPet,
  internalError,
  listPets,
  makePool,
  parsePayload,
  payloadTooLarge,
  readBodyAtMost,
  requestIdFor,
  routeNotFound,
  serverSettings
} from "./PetsBaseline.js"

const settings = serverSettings("petstore-bench-raw")
const pool = makePool(settings.databaseUrl, settings.applicationName)

const petsPath = /^\/v1\/pets\/?$/
const petPath = /^\/v1\/pets\/([^/]+)\/?$/

const decodePathSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const send = (response: ServerResponse, answer: Answer, requestId: string, head: boolean) => {
  const body = JSON.stringify(answer.body)
  response.writeHead(answer.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "x-request-id": requestId,
    ...answer.headers
  })
  response.end(head ? undefined : body)
}

const create = async (request: IncomingMessage, account: string): Promise<Answer> => {
  const refused = bodyPrecheck(request.headers)
  if (refused !== undefined) return refused
  const text = await readBodyAtMost(request)
  if (text === undefined) return payloadTooLarge
  const payload = parsePayload(request.headers["content-type"], text)
  if (!payload.ok) return payload.answer
  return createPet(pool, account, payload.value, request.headers["idempotency-key"])
}

const answer = async (request: IncomingMessage): Promise<Answer> => {
  const method = request.method ?? "GET"
  const url = new URL(request.url ?? "/", "http://localhost")
  const readOnly = method === "GET" || method === "HEAD"
  if (petsPath.test(url.pathname) && (readOnly || method === "POST")) {
    const caller = await authenticate(pool, request.headers.authorization)
    if (caller._tag === "Refused") return caller.answer
    return readOnly
      ? listPets(pool, (name) => url.searchParams.getAll(name))
      : create(request, caller.account)
  }
  const petId = petPath.exec(url.pathname)?.[1]
  if (petId !== undefined && readOnly) {
    const caller = await authenticate(pool, request.headers.authorization)
    if (caller._tag === "Refused") return deprecated(caller.answer)
    const decoded = decodePathSegment(petId)
    // The product's router does not match a segment it cannot decode: no such resource (404).
    if (decoded === undefined) return routeNotFound(method, url.pathname)
    return getPet(pool, decoded)
  }
  return routeNotFound(method, url.pathname)
}

const server = createServer(
  { keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 15_000 },
  (request, response) => {
    const requestId = requestIdFor(request.headers["x-request-id"])
    answer(request).then(
      (result) => send(response, result, requestId, request.method === "HEAD"),
      () => send(response, internalError, requestId, request.method === "HEAD")
    )
  }
)

server.listen(settings.port, settings.host)

const stop = () => {
  server.close()
  server.closeIdleConnections()
  void pool.end()
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
