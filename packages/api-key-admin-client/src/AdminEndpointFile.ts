/**
 * Finds where the server that owns a data directory serves its key administration: the endpoint file
 * it writes there (`ApiKeyAdminEndpoint`). No file, or one that does not decode, means no server offers
 * it.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { ApiKeyAdminEndpoint } from "@petstore/api"
import { Effect, Option, Schema } from "effect"

const decodeEndpoint = Schema.decodeUnknownOption(ApiKeyAdminEndpoint.AdminEndpointJson)

export const findEndpoint = (
  directory: string
): Effect.Effect<Option.Option<ApiKeyAdminEndpoint.AdminEndpoint>> =>
  Effect.promise(() =>
    readFile(join(directory, ApiKeyAdminEndpoint.adminEndpointFileName), "utf8").catch(() => undefined)
  ).pipe(Effect.map((text) => (text === undefined ? Option.none() : decodeEndpoint(text))))
