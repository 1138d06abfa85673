/**
 * `ServingChanges` within one process, for the stores to build on: the repositories that decide
 * serving announce every change they make (`announcingProjects`, `announcingDomainConfigs`,
 * `announcingCustomDomains`, `announcingDecidedWrites`, `announcingCertificates` wrap a store's own), and a store that hears other processes' changes
 * publishes those too and says whether it hears them. A change is announced when its operation ends,
 * whether or not it succeeded: a write that failed may still have been committed.
 */

import { CertificateStore } from "@petstore/certificates"
import { CustomDomainRepository } from "@petstore/domains"
import { DecidedWritesStore } from "@petstore/ownership"
import { ProjectRepository } from "@petstore/projects"
import { Context, Effect, Layer } from "effect"
import { DomainConfigRepository } from "./DomainConfigRepository.js"
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
>()("@petstore/serving/ServingChangeHub") {}

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

/** Announces each of `names` once `operation` ends. */
const everyHostname =
  (hub: ServingChangeHub["Service"], names: ReadonlyArray<string>) =>
  <A, E, R>(operation: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.ensuring(
      operation,
      Effect.sync(() => {
        for (const name of names) hub.publish({ _tag: "Hostname", hostname: name })
      })
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
        update: (changed) => project(changed.id)(projects.update(changed))
      })
    })
  )

/** The store's DomainConfigRepository, announcing its writes (a project's primary and redirects). */
export const announcingDomainConfigs: Layer.Layer<
  DomainConfigRepository,
  never,
  DomainConfigRepository | ServingChangeHub
> = Layer.effect(
  DomainConfigRepository,
  Effect.gen(function* () {
    const configs = yield* DomainConfigRepository
    const announce = announcing(yield* ServingChangeHub)
    return DomainConfigRepository.of({
      ...configs,
      save: (id, config) => announce({ _tag: "Project", projectId: id })(configs.save(id, config))
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
    return CustomDomainRepository.of({
      ...domains,
      insert: (domain, limits) => hostname(domain.hostname)(domains.insert(domain, limits)),
      update: (domain) => hostname(domain.hostname)(domains.update(domain)),
      remove: (projectId, name) => hostname(name)(domains.remove(projectId, name)),
      // Claims and leases change no status: only what a check stores does.
      completeChecks: (work, holder) =>
        everyHostname(
          hub,
          work.map(({ result }) => result.hostname)
        )(domains.completeChecks(work, holder))
    })
  })
)

/** The store's DecidedWritesStore, announcing the hostnames of the domains each decision writes. */
export const announcingDecidedWrites: Layer.Layer<
  DecidedWritesStore,
  never,
  DecidedWritesStore | ServingChangeHub
> = Layer.effect(
  DecidedWritesStore,
  Effect.gen(function* () {
    const decided = yield* DecidedWritesStore
    const hub = yield* ServingChangeHub
    return DecidedWritesStore.of({
      storeDecided: (writes) =>
        everyHostname(
          hub,
          writes.domains.map((domain) => domain.hostname)
        )(decided.storeDecided(writes))
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
