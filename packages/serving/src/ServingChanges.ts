/**
 * Port: how whatever keeps the edge's decisions in memory hears that what they were decided from
 * has changed: a domain (added, removed, verified, failed) or its certificate, or a project (its
 * plan, its deploys, its domain config). A removal must stop being served at once, so listeners are
 * told synchronously, before the operation that made the change in this process returns. Changes
 * made by other processes are heard only where the storage can tell, and not while it cannot:
 * `hearing` says which.
 */
import type { Effect, Scope } from "effect"
import { Context } from "effect"

export type ServingChange =
  /** The domain at this hostname, or its certificate. */
  | { readonly _tag: "Hostname"; readonly hostname: string }
  /** The project with this id: its plan, its deploys, its domain config. */
  | { readonly _tag: "Project"; readonly projectId: string }
  /** Anything may have changed (the change was not said precisely). */
  | { readonly _tag: "Everything" }

export interface ServingChangeListener {
  readonly changed: (change: ServingChange) => void
  /**
   * `true`: every change is heard from now on (anything kept from before may be stale, changes made
   * in between were not heard); `false`: changes made elsewhere may go unheard until the next `true`.
   */
  readonly hearing: (hearing: boolean) => void
}

export class ServingChanges extends Context.Service<
  ServingChanges,
  {
    /** Tells `listener` at once whether changes are heard, then every change, until the scope closes. */
    readonly subscribe: (listener: ServingChangeListener) => Effect.Effect<void, never, Scope.Scope>
  }
>()("@petstore/serving/ServingChanges") {}
