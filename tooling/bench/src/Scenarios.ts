/**
 * What the load generator asks for, one scenario at a time: the request sequence each connection
 * sends and the status every answer should have. Sequences are deterministic (a counter, never
 * `Math.random`), so every server of a round gets the same requests in the same order.
 */
import type { Request } from "autocannon"

export const scenarioNames = ["list-status", "list-next", "get-by-id", "create", "unauthorized"] as const
export type ScenarioName = (typeof scenarioNames)[number]

export const isScenarioName = (name: string): name is ScenarioName =>
  (scenarioNames as ReadonlyArray<string>).includes(name)

/** What a scenario needs to know about the seeded database. */
export interface ScenarioContext {
  readonly key: string
  /** `Link rel=next` targets collected by following the product's pages. */
  readonly cursorPaths: ReadonlyArray<string>
  /** Seeded animals have the ids 1..seededPets. */
  readonly seededPets: number
  /** Makes the names of created animals unique across runs. */
  readonly runTag: string
}

export interface Scenario {
  readonly name: ScenarioName
  readonly title: string
  /** The request, for the report. */
  readonly request: string
  readonly expectedStatus: number
}

export const scenarios: Readonly<Record<ScenarioName, Scenario>> = {
  "list-status": {
    name: "list-status",
    title: "List with status filter",
    request: "GET /v1/pets?status=available&limit=20",
    expectedStatus: 200
  },
  "list-next": {
    name: "list-next",
    title: "List following Link rel=next",
    request: "GET /v1/pets?limit=20&after=… (cursor URLs taken from Link headers)",
    expectedStatus: 200
  },
  "get-by-id": {
    name: "get-by-id",
    title: "Get by id",
    request: "GET /v1/pets/{id} (ids spread over the seeded animals)",
    expectedStatus: 200
  },
  create: {
    name: "create",
    title: "Create",
    request: "POST /v1/pets (a unique body per request)",
    expectedStatus: 201
  },
  unauthorized: {
    name: "unauthorized",
    title: "401 (no key)",
    request: "GET /v1/pets without Authorization",
    expectedStatus: 401
  }
}

/** A walk over 1..size that visits ids far apart (a stride coprime with most sizes). */
const spread = (n: number, size: number): number => ((n * 7_919) % size) + 1

/** The autocannon request list of a scenario (one entry whose `setupRequest` varies it). */
export const requestsFor = (name: ScenarioName, context: ScenarioContext): Array<Request> => {
  const authorization = { authorization: `Bearer ${context.key}` }
  let counter = 0
  switch (name) {
    case "list-status":
      return [{ method: "GET", path: "/v1/pets?status=available&limit=20", headers: authorization }]
    case "list-next":
      return [
        {
          method: "GET",
          headers: authorization,
          setupRequest: (request) => ({
            ...request,
            path: context.cursorPaths[counter++ % context.cursorPaths.length] ?? "/v1/pets"
          })
        }
      ]
    case "get-by-id":
      return [
        {
          method: "GET",
          headers: authorization,
          setupRequest: (request) => ({
            ...request,
            path: `/v1/pets/${spread(counter++, context.seededPets)}`
          })
        }
      ]
    case "create":
      return [
        {
          method: "POST",
          path: "/v1/pets",
          headers: { ...authorization, "content-type": "application/json" },
          setupRequest: (request) => {
            const n = counter++
            return {
              ...request,
              body: JSON.stringify({
                name: `bench ${context.runTag} ${n}`,
                categoryId: (n % 40) + 1,
                status: n % 2 === 0 ? "pending" : "sold"
              })
            }
          }
        }
      ]
    case "unauthorized":
      return [{ method: "GET", path: "/v1/pets" }]
  }
}
