/**
 * `ServingChanges` within one process, for the stores to build on: the repositories that decide
 * serving announce every change they make (`announcingProjects`, `announcingCustomDomains`,
 * `announcingCertificates` wrap a store's own), and a store that hears other processes' changes
 * publishes those too and says whether it hears them. A change is announced when its operation ends,
 * whether or not it succeeded: a write that failed may still have been committed.
 */
import { Context, Effect, Layer } from "effect"
import { CertificateStore } from "./CertificateIssuer.js"
import { CustomDomainRepository } from "./CustomDomainRepository.js"
import { ProjectRepository } from "./ProjectRepository.js"
import { type ServingChange, type ServingChangeListener, ServingChanges } from "./ServingChanges.js"

export class ServingChangeHub extends Context.Service<
  ServingChangeHub,
  {
    readonly changes: ServingChanges["Service"]
    /** Tells every listener of `change`. */
    readonly publish: (change: ServingChange) => void
    /** Whether changes are heard now (see `ServingChangeListener.hearing`). */
    readonly setHearing: (hearing: boolean) => void
  }
>()("@petstore/custom-domains/ServingChangeHub") {}

export interface HubOptions {
  /** Whether changes are heard from the start: true where every change goes through this process. */
  readonly hearing: boolean
  /** Called at each subscription, e.g. to start listening for other processes' changes. */
  readonly onSubscribe?: () => void
}

export const makeServingChangeHub = (options: HubOptions): ServingChangeHub["Service"] => {
  const listeners = new Set<ServingChangeListener>()
  let hearing = options.hearing
  return {
    changes: ServingChanges.of({
      subscribe: (listener) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            listeners.add(listener)
            listener.hearing(hearing)
            options.onSubscribe?.()
          }),
          () => Effect.sync(() => listeners.delete(listener))
        )
    }),
    publish: (change) => {
      for (const listener of listeners) listener.changed(change)
    },
    setHearing: (now) => {
      hearing = now
      for (const listener of listeners) listener.hearing(now)
    }
  }
}

/** A hub where every change goes through this process (in memory, an embedded database). */
export const inProcessServingChangeHubLayer: Layer.Layer<ServingChangeHub> = Layer.sync(
  ServingChangeHub,
  () => makeServingChangeHub({ hearing: true })
)

/** `ServingChanges` from the hub. */
export const servingChangesLayer: Layer.Layer<ServingChanges, never, ServingChangeHub> = Layer.effect(
  ServingChanges,
  Effect.map(ServingChangeHub, (hub) => hub.changes)
)

const announcing =
  (hub: ServingChangeHub["Service"]) =>
  (change: ServingChange) =>
  <A, E, R>(operation: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.ensuring(
      operation,
      Effect.sync(() => hub.publish(change))
    )

/** The store's ProjectRepository, announcing its writes. */
export const announcingProjects: Layer.Layer<ProjectRepository, never, ProjectRepository | ServingChangeHub> =
  Layer.effect(
    ProjectRepository,
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const announce = announcing(yield* ServingChangeHub)
      const project = (projectId: string) => announce({ _tag: "Project", projectId })
      return ProjectRepository.of({
        ...projects,
        insert: (created, limits) => project(created.id)(projects.insert(created, limits)),
        update: (changed) => project(changed.id)(projects.update(changed)),
        saveConfig: (id, config) => project(id)(projects.saveConfig(id, config))
      })
    })
  )

/** The store's CustomDomainRepository, announcing the writes that can change what is served. */
export const announcingCustomDomains: Layer.Layer<
  CustomDomainRepository,
  never,
  CustomDomainRepository | ServingChangeHub
> = Layer.effect(
  CustomDomainRepository,
  Effect.gen(function* () {
    const domains = yield* CustomDomainRepository
    const hub = yield* ServingChangeHub
    const announce = announcing(hub)
    const hostname = (name: string) => announce({ _tag: "Hostname", hostname: name })
    const everyHostname =
      (names: ReadonlyArray<string>) =>
      <A, E, R>(operation: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.ensuring(
          operation,
          Effect.sync(() => {
            for (const name of names) hub.publish({ _tag: "Hostname", hostname: name })
          })
        )
    return CustomDomainRepository.of({
      ...domains,
      insert: (domain, limits) => hostname(domain.hostname)(domains.insert(domain, limits)),
      update: (domain) => hostname(domain.hostname)(domains.update(domain)),
      storeDecided: (writes) =>
        everyHostname(writes.domains.map((domain) => domain.hostname))(domains.storeDecided(writes)),
      remove: (projectId, name) => hostname(name)(domains.remove(projectId, name)),
      // Claims and leases change no status: only what a check stores does.
      completeChecks: (work, holder) =>
        everyHostname(work.map(({ result }) => result.hostname))(domains.completeChecks(work, holder))
    })
  })
)

/** The store's CertificateStore, announcing its writes. */
export const announcingCertificates: Layer.Layer<
  CertificateStore,
  never,
  CertificateStore | ServingChangeHub
> = Layer.effect(
  CertificateStore,
  Effect.gen(function* () {
    const certificates = yield* CertificateStore
    const announce = announcing(yield* ServingChangeHub)
    const hostname = (name: string) => announce({ _tag: "Hostname", hostname: name })
    return CertificateStore.of({
      ...certificates,
      save: (issuedFor, certificate) =>
        hostname(issuedFor.hostname)(certificates.save(issuedFor, certificate)),
      remove: (name) => hostname(name)(certificates.remove(name))
    })
  })
)
