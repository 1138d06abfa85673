/**
 * The behaviour every ProjectRepository must have, as a test suite run against each adapter. Every
 * test uses projects (ids and accounts) of its own.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import { AccountName, defaultLimits } from "@petstore/kernel"
import { Deploy, Project, ProjectId, ProjectRepository, recordDeploy } from "@petstore/projects"
import { Array as Arr, Effect, Exit, type Layer, Option, Schema } from "effect"
import { freshProject, later, randomToken, t0 } from "./ContractFixtures.js"

/** The stored fields, as plain values (dates as ISO strings, to the millisecond). */
const encodeProject = Schema.encodeSync(Project)
const fields = (project: Project) => encodeProject(project)

export const projectRepositoryTests = (it: Vitest.MethodsNonLive<ProjectRepository>): void => {
  it.effect("insert, then findById and findOwned return the project", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const project = yield* freshProject({ plan: "enterprise", createdAt: later(t0, 123) })
      yield* projects.insert(project, defaultLimits)
      expect(Option.map(yield* projects.findById(project.id), fields)).toEqual(Option.some(fields(project)))
      expect(Option.map(yield* projects.findOwned(project.account, project.id), fields)).toEqual(
        Option.some(fields(project))
      )
    })
  )

  it.effect("another account's project is not found by findOwned; unknown ids are none", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const project = yield* freshProject()
      yield* projects.insert(project, defaultLimits)
      const stranger = AccountName.make(`other-${yield* randomToken}`)
      expect(yield* projects.findOwned(stranger, project.id)).toEqual(Option.none())
      const unknown = ProjectId.make(`unknown-${yield* randomToken}`)
      expect(yield* projects.findById(unknown)).toEqual(Option.none())
      expect(yield* projects.findOwned(project.account, unknown)).toEqual(Option.none())
    })
  )

  it.effect("update replaces the plan and the deploys (dates to the millisecond)", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const project = yield* freshProject({ plan: "free" })
      yield* projects.insert(project, defaultLimits)

      const succeeded = recordDeploy(
        new Project({ ...project, plan: "pro" }),
        new Deploy({ status: "succeeded", at: later(t0, 1_001) })
      )
      yield* projects.update(succeeded)
      expect(Option.map(yield* projects.findById(project.id), fields)).toEqual(Option.some(fields(succeeded)))

      const failed = recordDeploy(succeeded, new Deploy({ status: "failed", at: later(t0, 2_999) }))
      expect(failed.lastSucceededDeployAt).toEqual(later(t0, 1_001))
      yield* projects.update(failed)
      expect(Option.map(yield* projects.findOwned(project.account, project.id), fields)).toEqual(
        Option.some(fields(failed))
      )
    })
  )

  it.effect("a taken id fails with ProjectIdTaken, for the same or another account; the first stays", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const project = yield* freshProject({ plan: "pro" })
      yield* projects.insert(project, defaultLimits)
      const same = yield* Effect.flip(
        projects.insert(new Project({ ...project, plan: "free" }), defaultLimits)
      )
      expect(same._tag).toBe("ProjectIdTaken")
      const other = new Project({
        ...project,
        account: AccountName.make(`other-${yield* randomToken}`),
        plan: "enterprise"
      })
      const taken = yield* Effect.flip(projects.insert(other, defaultLimits))
      expect(taken._tag).toBe("ProjectIdTaken")
      if (taken._tag === "ProjectIdTaken") expect(taken.id).toBe(project.id)
      expect(Option.map(yield* projects.findById(project.id), fields)).toEqual(Option.some(fields(project)))
      expect(yield* projects.findOwned(other.account, project.id)).toEqual(Option.none())
    })
  )

  it.effect("concurrent inserts of one id by different accounts: exactly one succeeds", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const base = yield* freshProject()
      const exits = yield* Effect.forEach(
        Arr.range(1, 10),
        (n) =>
          Effect.exit(
            projects.insert(
              new Project({ ...base, account: AccountName.make(`${base.account}-${n}`) }),
              defaultLimits
            )
          ),
        { concurrency: "unbounded" }
      )
      expect(exits.filter(Exit.isSuccess)).toHaveLength(1)
      const failures = exits.flatMap((exit) => (Exit.isFailure(exit) ? [exit.cause] : []))
      expect(failures).toHaveLength(9)
      for (const cause of failures)
        expect(cause.reasons.map((reason) => reason._tag === "Fail" && reason.error._tag)).toEqual([
          "ProjectIdTaken"
        ])
    })
  )

  it.effect("an account at its limit is refused with LimitReached; other accounts are not counted", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const first = yield* freshProject()
      yield* projects.insert(first, { projectsPerAccount: 2 })
      yield* projects.insert(yield* freshProject({ account: first.account }), { projectsPerAccount: 2 })
      const third = yield* freshProject({ account: first.account })
      const refused = yield* Effect.flip(projects.insert(third, { projectsPerAccount: 2 }))
      expect(refused).toMatchObject({ _tag: "LimitReached", limit: "projects per account", value: 2 })
      expect(yield* projects.findById(third.id)).toEqual(Option.none())
      // Another account starts from none; a higher limit lets this one grow again.
      yield* projects.insert(yield* freshProject(), { projectsPerAccount: 1 })
      yield* projects.insert(third, { projectsPerAccount: 3 })
      expect(Option.map(yield* projects.findById(third.id), fields)).toEqual(Option.some(fields(third)))
    })
  )

  it.effect("concurrent inserts of one account at its limit: exactly the limit succeeds", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const account = (yield* freshProject()).account
      const candidates = yield* Effect.forEach(Arr.range(1, 12), () => freshProject({ account }))
      const exits = yield* Effect.forEach(
        candidates,
        (project) => Effect.exit(projects.insert(project, { projectsPerAccount: 5 })),
        {
          concurrency: "unbounded"
        }
      )
      expect(exits.filter(Exit.isSuccess)).toHaveLength(5)
      for (const exit of exits) {
        if (Exit.isFailure(exit)) {
          expect(exit.cause.reasons.map((reason) => reason._tag === "Fail" && reason.error._tag)).toEqual([
            "LimitReached"
          ])
        }
      }
      const listed = yield* projects.listOwned({ account, after: Option.none(), limit: 100 })
      expect(listed.projects).toHaveLength(5)
    })
  )

  it.effect("listOwned pages an account's projects in ascending id order, with the next cursor", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const account = (yield* freshProject()).account
      const token = yield* randomToken
      // Hyphens and digits sort bytewise: "a-2" < "a0" < "a1", whatever the database's collation.
      const ids = ["a1", "a-2", "b", "a0", "c-c"].map((id) => ProjectId.make(`${id}-${token}`))
      for (const id of ids) {
        yield* projects.insert(new Project({ ...(yield* freshProject({ account })), id }), {
          projectsPerAccount: 100
        })
      }
      yield* projects.insert(yield* freshProject(), { projectsPerAccount: 100 })
      const sorted = [...ids].sort()
      const first = yield* projects.listOwned({ account, after: Option.none(), limit: 2 })
      expect(first.projects.map((project) => project.id)).toEqual(sorted.slice(0, 2))
      expect(first.nextAfter).toEqual(Option.some(sorted[1]))
      const second = yield* projects.listOwned({ account, after: first.nextAfter, limit: 2 })
      expect(second.projects.map((project) => project.id)).toEqual(sorted.slice(2, 4))
      const last = yield* projects.listOwned({ account, after: second.nextAfter, limit: 2 })
      expect(last.projects.map((project) => project.id)).toEqual(sorted.slice(4))
      expect(last.nextAfter).toEqual(Option.none())
      const whole = yield* projects.listOwned({ account, after: Option.none(), limit: 5 })
      expect(whole.projects.map(fields)).toHaveLength(5)
      expect(whole.nextAfter).toEqual(Option.none())
      // A cursor past every id, and an account with nothing.
      const beyond = yield* projects.listOwned({
        account,
        after: Option.some(ProjectId.make("zzz")),
        limit: 5
      })
      expect(beyond).toEqual({ projects: [], nextAfter: Option.none() })
      const stranger = yield* projects.listOwned({
        account: AccountName.make(`other-${token}`),
        after: Option.none(),
        limit: 5
      })
      expect(stranger.projects).toEqual([])
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const projectRepositoryContract = <E>(name: string, store: Layer.Layer<ProjectRepository, E>): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("ProjectRepository", () => projectRepositoryTests(it))
  )
