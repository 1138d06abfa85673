/**
 * The behaviour every ProjectRepository must have, as a test suite run against each adapter. Every
 * test uses projects (ids and accounts) of its own.
 */
import { describe, expect, layer, type Vitest } from "@effect/vitest"
import {
  Deploy,
  DomainConfig,
  DomainRedirect,
  Project,
  ProjectId,
  ProjectRepository,
  recordDeploy
} from "@petstore/custom-domains"
import { AccountName } from "@petstore/kernel"
import { Array as Arr, Effect, Exit, type Layer, Option, Schema } from "effect"
import { freshProject, later, randomToken, t0 } from "./ContractFixtures.js"

/** The stored fields, as plain values (dates as ISO strings, to the millisecond). */
const encodeProject = Schema.encodeSync(Project)
const encodeConfig = Schema.encodeSync(DomainConfig)
const fields = (project: Project) => encodeProject(project)
const configFields = (config: DomainConfig) => encodeConfig(config)

export const projectRepositoryTests = (it: Vitest.MethodsNonLive<ProjectRepository>): void => {
  it.effect("insert, then findById and findOwned return the project", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const project = yield* freshProject({ plan: "enterprise", createdAt: later(t0, 123) })
      yield* projects.insert(project)
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
      yield* projects.insert(project)
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
      yield* projects.insert(project)

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
      yield* projects.insert(project)
      const same = yield* Effect.flip(projects.insert(new Project({ ...project, plan: "free" })))
      expect(same._tag).toBe("ProjectIdTaken")
      const other = new Project({
        ...project,
        account: AccountName.make(`other-${yield* randomToken}`),
        plan: "enterprise"
      })
      const taken = yield* Effect.flip(projects.insert(other))
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
            projects.insert(new Project({ ...base, account: AccountName.make(`${base.account}-${n}`) }))
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

  it.effect("the domain config is none until saved, then round-trips (redirects in order)", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const project = yield* freshProject()
      yield* projects.insert(project)
      expect(yield* projects.findConfig(project.id)).toEqual(Option.none())

      const primary = `docs.${project.id}.com`
      const config = new DomainConfig({
        primary,
        redirects: ["www", "old", "a", "zz", "docs2"].map(
          (label) => new DomainRedirect({ from: `${label}.${project.id}.com`, to: primary, status: 301 })
        )
      })
      yield* projects.saveConfig(project.id, config)
      expect(Option.map(yield* projects.findConfig(project.id), configFields)).toEqual(
        Option.some(configFields(config))
      )

      const replaced = new DomainConfig({ primary: `${project.id}.docs-platform.test`, redirects: [] })
      yield* projects.saveConfig(project.id, replaced)
      expect(Option.map(yield* projects.findConfig(project.id), configFields)).toEqual(
        Option.some(configFields(replaced))
      )

      // Saving the config leaves the project itself alone, and updating the project keeps the config.
      expect(Option.map(yield* projects.findById(project.id), fields)).toEqual(Option.some(fields(project)))
      yield* projects.update(new Project({ ...project, plan: "enterprise" }))
      expect(Option.map(yield* projects.findConfig(project.id), configFields)).toEqual(
        Option.some(configFields(replaced))
      )
    })
  )

  it.effect("configs are per project; an unknown project has none", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const first = yield* freshProject()
      const second = yield* freshProject({ account: first.account })
      yield* projects.insert(first)
      yield* projects.insert(second)
      const config = new DomainConfig({ primary: `${first.id}.docs-platform.test`, redirects: [] })
      yield* projects.saveConfig(first.id, config)
      expect(yield* projects.findConfig(second.id)).toEqual(Option.none())
      expect(yield* projects.findConfig(ProjectId.make(`unknown-${yield* randomToken}`))).toEqual(
        Option.none()
      )
    })
  )
}

/** Runs the suite against one fresh store built from `store`. */
export const projectRepositoryContract = <E>(name: string, store: Layer.Layer<ProjectRepository, E>): void =>
  layer(store, { excludeTestServices: true })(name, (it) =>
    describe("ProjectRepository", () => projectRepositoryTests(it))
  )
