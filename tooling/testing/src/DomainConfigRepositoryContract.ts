/**
 * The behaviour every DomainConfigRepository must have, as a test suite run against each adapter: a
 * project's config is none until saved, is kept as saved, and is the project's alone. Every test uses
 * projects of its own (stored with the adapter's ProjectRepository, beside which configs are kept).
 */
import { expect, type Vitest } from "@effect/vitest"
import { defaultLimits } from "@petstore/kernel"
import { Project, ProjectId, ProjectRepository } from "@petstore/projects"
import { DomainConfig, DomainConfigRepository, DomainRedirect } from "@petstore/serving"
import { Effect, Option, Schema } from "effect"
import { freshProject, randomToken } from "./ContractFixtures.js"

const fields = Schema.encodeSync(Project)
const configFields = Schema.encodeSync(DomainConfig)

export const domainConfigRepositoryTests = (
  it: Vitest.MethodsNonLive<ProjectRepository | DomainConfigRepository>
): void => {
  it.effect("the domain config is none until saved, then round-trips (redirects in order)", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const configs = yield* DomainConfigRepository
      const project = yield* freshProject()
      yield* projects.insert(project, defaultLimits)
      expect(yield* configs.find(project.id)).toEqual(Option.none())

      const primary = `docs.${project.id}.com`
      const config = new DomainConfig({
        primary,
        redirects: ["www", "old", "a", "zz", "docs2"].map(
          (label) => new DomainRedirect({ from: `${label}.${project.id}.com`, to: primary, status: 301 })
        )
      })
      yield* configs.save(project.id, config)
      expect(Option.map(yield* configs.find(project.id), configFields)).toEqual(
        Option.some(configFields(config))
      )

      const replaced = new DomainConfig({ primary: `${project.id}.docs-platform.test`, redirects: [] })
      yield* configs.save(project.id, replaced)
      expect(Option.map(yield* configs.find(project.id), configFields)).toEqual(
        Option.some(configFields(replaced))
      )

      // Saving the config leaves the project itself alone, and updating the project keeps the config.
      expect(Option.map(yield* projects.findById(project.id), fields)).toEqual(Option.some(fields(project)))
      yield* projects.update(new Project({ ...project, plan: "enterprise" }))
      expect(Option.map(yield* configs.find(project.id), configFields)).toEqual(
        Option.some(configFields(replaced))
      )
    })
  )

  it.effect("configs are per project; an unknown project has none", () =>
    Effect.gen(function* () {
      const projects = yield* ProjectRepository
      const configs = yield* DomainConfigRepository
      const first = yield* freshProject()
      const second = yield* freshProject({ account: first.account })
      yield* projects.insert(first, defaultLimits)
      yield* projects.insert(second, defaultLimits)
      const config = new DomainConfig({ primary: `${first.id}.docs-platform.test`, redirects: [] })
      yield* configs.save(first.id, config)
      expect(yield* configs.find(second.id)).toEqual(Option.none())
      expect(yield* configs.find(ProjectId.make(`unknown-${yield* randomToken}`))).toEqual(Option.none())
    })
  )
}
