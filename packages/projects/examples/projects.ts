/**
 * The project use cases over an in-memory `ProjectRepository`: create projects within the account's
 * limit, find one through its owner (another account's is not found), change its plan, record its
 * deploys, and list them a page at a time.
 */
import { AccountName, type LimitReached, Limits, limitReached } from "@petstore/kernel"
import {
  changePlan,
  createProject,
  findOwnedProject,
  hasSucceededDeploy,
  isPaidPlan,
  listProjects,
  type Project,
  ProjectId,
  ProjectIdTaken,
  ProjectRepository,
  recordProjectDeploy
} from "@petstore/projects"
import { Effect, Layer, Option } from "effect"

// The port in memory. A real store keeps ids unique across accounts and counts the account's
// projects in the same statement (or transaction) as the insert, so concurrent creations at the
// limit never overshoot it.
const projects = new Map<string, Project>()

const MemoryProjects = Layer.succeed(
  ProjectRepository,
  ProjectRepository.of({
    insert: (project, { projectsPerAccount }) =>
      Effect.suspend((): Effect.Effect<void, ProjectIdTaken | LimitReached> => {
        if (projects.has(project.id)) return Effect.fail(new ProjectIdTaken({ id: project.id }))
        const owned = [...projects.values()].filter((other) => other.account === project.account)
        if (owned.length >= projectsPerAccount) {
          return Effect.fail(limitReached("projectsPerAccount", projectsPerAccount))
        }
        projects.set(project.id, project)
        return Effect.void
      }),
    findById: (id) => Effect.sync(() => Option.fromNullishOr(projects.get(id))),
    // Another account's project is simply not there.
    findOwned: (account, id) =>
      Effect.sync(() =>
        Option.filter(Option.fromNullishOr(projects.get(id)), (found) => found.account === account)
      ),
    listOwned: ({ account, after, limit }) =>
      Effect.sync(() => {
        const following = [...projects.values()]
          .filter((project) => project.account === account)
          .filter((project) => Option.isNone(after) || project.id > after.value)
          .sort((a, b) => (a.id < b.id ? -1 : 1))
        const page = following.slice(0, limit)
        const last = page.at(-1)
        return {
          projects: page,
          nextAfter:
            following.length > page.length && last !== undefined ? Option.some(last.id) : Option.none()
        }
      }),
    update: (project) => Effect.sync(() => void projects.set(project.id, project))
  })
)

const acme = AccountName.make("acme")
const rival = AccountName.make("rival")

const program = Effect.gen(function* () {
  const handbook = yield* createProject(acme, ProjectId.make("handbook"), "free")
  console.log(handbook.id, handbook.plan, isPaidPlan(handbook.plan), hasSucceededDeploy(handbook))
  yield* createProject(acme, ProjectId.make("api-docs"), "pro")

  // Ids are unique across accounts; the account's limit is 3 projects here.
  const taken = yield* createProject(rival, ProjectId.make("handbook"), "free").pipe(
    Effect.as("created"),
    Effect.catchTag("ProjectIdTaken", (refusal) => Effect.succeed(`${refusal._tag} ${refusal.id}`))
  )
  console.log(taken)
  yield* createProject(acme, ProjectId.make("changelog"), "free")
  const limited = yield* createProject(acme, ProjectId.make("blog"), "free").pipe(
    Effect.as("created"),
    Effect.catchTag("LimitReached", (refusal) =>
      Effect.succeed(`${refusal._tag} ${refusal.limit} ${refusal.value}`)
    )
  )
  console.log(limited)

  // Every operation goes through the owner: another account's project is not found, never forbidden.
  console.log((yield* Effect.flip(findOwnedProject(rival, handbook.id)))._tag)

  const paid = yield* changePlan(acme, handbook.id, "pro")
  yield* recordProjectDeploy(acme, handbook.id, "succeeded")
  const deployed = yield* recordProjectDeploy(acme, handbook.id, "failed")
  // A failed deploy leaves the last successful one online: the project counts as deployed.
  console.log(paid.plan, deployed.lastDeploy?.status, hasSucceededDeploy(deployed))

  const first = yield* listProjects(acme, { after: Option.none(), limit: 2 })
  const second = yield* listProjects(acme, { after: first.nextAfter, limit: 2 })
  console.log(
    first.projects.map((project) => project.id),
    Option.getOrNull(first.nextAfter)
  )
  console.log(
    second.projects.map((project) => project.id),
    Option.getOrNull(second.nextAfter)
  )
})

Effect.runPromise(
  program.pipe(
    Effect.provide(MemoryProjects),
    // The operator's limits; without this line the defaults apply (100 projects per account).
    Effect.provideService(Limits, { ...Limits.defaultValue(), projectsPerAccount: 3 })
  )
)

// Output:
// handbook free false false
// ProjectIdTaken handbook
// LimitReached projects per account 3
// ProjectNotFound
// pro failed true
// [ 'api-docs', 'changelog' ] changelog
// [ 'handbook' ] null
