/**
 * The OpenAPI document is the contract: it changes only when the contract does. The committed copy
 * (`openapi.json`, written by `pnpm --filter @petstore/api openapi:write` after a build) is what the
 * document must be, byte for byte, so that moving code around (a package split, a refactor of the
 * handlers) cannot change what clients are told without the diff of that file showing it.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as OpenApi from "effect/http-api/OpenApi"
import { PetstoreApi } from "../src/PetstoreApi.js"

const committed = readFileSync(new URL("../openapi.json", import.meta.url), "utf8")

describe("the OpenAPI document", () => {
  it("is byte for byte the committed openapi.json", () => {
    expect(`${JSON.stringify(OpenApi.fromApi(PetstoreApi), null, 2)}\n`).toBe(committed)
  })
})
