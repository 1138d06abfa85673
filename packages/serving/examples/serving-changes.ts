/**
 * How whatever keeps the edge's decisions hears that they are stale: a hub within one process,
 * whose listeners are told of each change at once, and whether changes are heard at all.
 */

import type { ServingChange } from "@petstore/serving"
import { makeServingChangeHub } from "@petstore/serving"
import { Effect } from "effect"

const describe = (change: ServingChange) =>
  change._tag === "Hostname"
    ? change.hostname
    : change._tag === "Project"
      ? `project ${change.projectId}`
      : "all"

const hub = makeServingChangeHub({ hearing: true })
const heard: Array<string> = []

const listening = Effect.scoped(
  Effect.gen(function* () {
    yield* hub.changes.subscribe({
      changed: (change) => heard.push(describe(change)),
      hearing: (hearing) => heard.push(hearing ? "hearing" : "not hearing")
    })
    hub.publish({ _tag: "Hostname", hostname: "docs.example.com" })
    hub.publish({ _tag: "Project", projectId: "handbook" })
    hub.setHearing(false) // e.g. the store lost its notification connection
    hub.publish({ _tag: "Everything" })
  })
)

Effect.runSync(listening)
hub.publish({ _tag: "Hostname", hostname: "www.example.com" }) // the scope is closed: nobody listens
console.log(heard)

// Output:
// [
//   'hearing',
//   'docs.example.com',
//   'project handbook',
//   'not hearing',
//   'all'
// ]
