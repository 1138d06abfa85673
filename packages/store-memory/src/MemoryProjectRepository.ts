/**
 * ProjectRepository in memory: projects keyed by id (across accounts, so an id is taken once), each
 * with the domain config its owner saved, if any. Every write is one atomic `Ref` update: an insert
 * counts the account's projects and adds its own in the same update, so no two inserts overshoot
 * the limit.
 */

import { type LimitReached, limitReached } from "@petstore/kernel"
import { type Project, type ProjectId, ProjectIdTaken, ProjectRepository } from "@petstore/projects"
import { type DomainConfig, DomainConfigRepository } from "@petstore/serving"
import { Array as Arr, Context, Effect, HashMap, Layer, Option, Order, Ref } from "effect"

interface StoredProject {
  readonly project: Project
  readonly config: Option.Option<DomainConfig>
}

type ProjectTable = HashMap.HashMap<ProjectId, StoredProject>

const ownedBy = (projects: ProjectTable, account: string): Array<Project> =>
  [...HashMap.values(projects)]
    .map((stored) => stored.project)
    .filter((project) => project.account === account)

/** Ids in the order PostgreSQL's `text` sorts them under the C collation: code unit by code unit. */
const byId = Order.mapInput(Order.String, (project: Project) => project.id)

/** The project repository and the domain configs, kept with each project. */
export interface MemoryProjectStores {
  readonly projects: ProjectRepository["Service"]
  readonly configs: DomainConfigRepository["Service"]
}

export const make: Effect.Effect<MemoryProjectStores> = Effect.map(
  Ref.make<ProjectTable>(HashMap.empty()),
  (table) => {
    const find = (id: ProjectId) => Effect.map(Ref.get(table), HashMap.get(id))
    const projects = ProjectRepository.of({
      insert: (project, { projectsPerAccount }) =>
        Effect.flatten(
          Ref.modify(
            table,
            (projects): [Effect.Effect<void, ProjectIdTaken | LimitReached>, ProjectTable] => {
              if (HashMap.has(projects, project.id)) {
                return [Effect.fail(new ProjectIdTaken({ id: project.id })), projects]
              }
              if (ownedBy(projects, project.account).length >= projectsPerAccount) {
                return [Effect.fail(limitReached("projectsPerAccount", projectsPerAccount)), projects]
              }
              return [Effect.void, HashMap.set(projects, project.id, { project, config: Option.none() })]
            }
          )
        ),
      listOwned: ({ account, after, limit }) =>
        Effect.map(Ref.get(table), (projects) => {
          const owned = Arr.sort(ownedBy(projects, account), byId)
          const following = Option.match(after, {
            onNone: () => owned,
            onSome: (cursor) => owned.filter((project) => project.id > cursor)
          })
          const page = following.slice(0, Math.max(0, limit))
          return {
            projects: page,
            nextAfter:
              following.length > page.length ? Option.map(Arr.last(page), (last) => last.id) : Option.none()
          }
        }),
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
        )
    })
    const configs = DomainConfigRepository.of({
      find: (id) =>
        Effect.map(
          find(id),
          Option.flatMap((stored) => stored.config)
        ),
      save: (id, config) =>
        Ref.update(
          table,
          HashMap.modify(id, (stored) => ({ ...stored, config: Option.some(config) }))
        )
    })
    return { projects, configs }
  }
)

export const layer: Layer.Layer<ProjectRepository | DomainConfigRepository> = Layer.effectContext(
  Effect.map(make, ({ configs, projects }) =>
    Context.make(ProjectRepository, projects).pipe(Context.add(DomainConfigRepository, configs))
  )
)
