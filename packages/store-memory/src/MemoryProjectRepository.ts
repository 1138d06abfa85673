/**
 * ProjectRepository in memory: projects keyed by id (across accounts, so an id is taken once), each
 * with the domain config its owner saved, if any. Every write is one atomic `Ref` update.
 */
import {
  type DomainConfig,
  type Project,
  type ProjectId,
  ProjectIdTaken,
  ProjectRepository
} from "@petstore/custom-domains"
import { Effect, HashMap, Layer, Option, Ref } from "effect"

interface StoredProject {
  readonly project: Project
  readonly config: Option.Option<DomainConfig>
}

type ProjectTable = HashMap.HashMap<ProjectId, StoredProject>

export const make: Effect.Effect<ProjectRepository["Service"]> = Effect.map(
  Ref.make<ProjectTable>(HashMap.empty()),
  (table) => {
    const find = (id: ProjectId) => Effect.map(Ref.get(table), HashMap.get(id))
    return ProjectRepository.of({
      insert: (project) =>
        Effect.flatten(
          Ref.modify(table, (projects): [Effect.Effect<void, ProjectIdTaken>, ProjectTable] =>
            HashMap.has(projects, project.id)
              ? [Effect.fail(new ProjectIdTaken({ id: project.id })), projects]
              : [Effect.void, HashMap.set(projects, project.id, { project, config: Option.none() })]
          )
        ),
      findById: (id) =>
        Effect.map(
          find(id),
          Option.map((stored) => stored.project)
        ),
      findOwned: (account, id) =>
        Effect.map(
          find(id),
          Option.flatMap((stored) =>
            stored.project.account === account ? Option.some(stored.project) : Option.none()
          )
        ),
      update: (project) =>
        Ref.update(
          table,
          HashMap.modify(project.id, (stored) => ({ ...stored, project }))
        ),
      findConfig: (id) =>
        Effect.map(
          find(id),
          Option.flatMap((stored) => stored.config)
        ),
      saveConfig: (id, config) =>
        Ref.update(
          table,
          HashMap.modify(id, (stored) => ({ ...stored, config: Option.some(config) }))
        )
    })
  }
)

export const layer: Layer.Layer<ProjectRepository> = Layer.effect(ProjectRepository, make)
