/**
 * The project a request's path names, for the key's account: what every project operation starts
 * from. An id that cannot exist is simply not found, as another account's project is.
 */
import { CurrentCaller } from "@petstore/api"
import { ProjectId, ProjectNotFound } from "@petstore/projects"
import { Effect, Option, Schema } from "effect"

const decodeProjectId = Schema.decodeOption(ProjectId)

/** The caller's account and the project id of the path. */
export const projectScope = (projectIdText: string) =>
  Effect.gen(function* () {
    const caller = yield* CurrentCaller
    const id = decodeProjectId(projectIdText)
    if (Option.isNone(id)) return yield* new ProjectNotFound({ id: projectIdText })
    return { account: caller.account, id: id.value }
  })
