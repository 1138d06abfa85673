/**
 * Projects' rules (the id, plans, deploys) and use cases (create, find the owner's, change the plan,
 * record a deploy, list a page at a time), over an in-memory `ProjectRepository` that keeps the
 * port's promises: ids unique across accounts, the account's limit counted and checked in one step,
 * another account's project never found, pages in ascending id order.
 */
import { AccountName, LimitReached, Limits, limitReached, StorageError } from "@petstore/kernel"
import { Effect, Exit, Layer, Option, Result, Schema } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import {
  changePlan,
  createProject,
  Deploy,
  defaultHostnameOf,
  findOwnedProject,
  hasSucceededDeploy,
  isPaidPlan,
  listProjects,
  Plan,
  Project,
  ProjectId,
  ProjectIdTaken,
  ProjectNotFound,
  ProjectRepository,
  recordDeploy,
  recordProjectDeploy
} from "../src/index.js"

const acme = AccountName.make("acme")
const rival = AccountName.make("rival")
const id = (text: string) => ProjectId.make(text)
const t0 = Date.parse("2027-03-01T12:00:00.000Z")

/** The port in memory; `stored` is what a store would hold. */
const memoryProjects = () => {
  const stored = new Map<string, Project>()
  const layer = Layer.succeed(
    ProjectRepository,
    ProjectRepository.of({
      insert: (project, { projectsPerAccount }) =>
        Effect.suspend((): Effect.Effect<void, ProjectIdTaken | LimitReached> => {
          if (stored.has(project.id)) return Effect.fail(new ProjectIdTaken({ id: project.id }))
          const owned = [...stored.values()].filter((other) => other.account === project.account)
          if (owned.length >= projectsPerAccount) {
            return Effect.fail(limitReached("projectsPerAccount", projectsPerAccount))
          }
          stored.set(project.id, project)
          return Effect.void
        }),
      findById: (projectId) => Effect.sync(() => Option.fromNullishOr(stored.get(projectId))),
      findOwned: (account, projectId) =>
        Effect.sync(() =>
          Option.filter(Option.fromNullishOr(stored.get(projectId)), (project) => project.account === account)
        ),
      listOwned: ({ account, after, limit }) =>
        Effect.sync(() => {
          const following = [...stored.values()]
            .filter((project) => project.account === account)
            .filter((project) => Option.isNone(after) || project.id > after.value)
            .sort((a, b) => (a.id < b.id ? -1 : 1))
          const projects = following.slice(0, limit)
          const last = projects.at(-1)
          return {
            projects,
            nextAfter:
              following.length > projects.length && last !== undefined ? Option.some(last.id) : Option.none()
          }
        }),
      update: (project) => Effect.sync(() => void stored.set(project.id, project))
    })
  )
  return { stored, layer }
}

/** Runs `program` over a fresh store, the clock at `t0`, with the given limits (the defaults if none). */
const run = <A, E>(
  program: Effect.Effect<A, E, ProjectRepository>,
  options: { readonly projectsPerAccount?: number } = {}
) => {
  const { layer } = memoryProjects()
  return Effect.runPromiseExit(
    Effect.gen(function* () {
      yield* TestClock.setTime(t0)
      return yield* program
    }).pipe(
      Effect.provide(layer),
      Effect.provideService(Limits, { ...Limits.defaultValue(), ...options }),
      Effect.provide(TestClock.layer())
    )
  )
}

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Exit.findErrorOption(exit)) : undefined
const successOf = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (Exit.isSuccess(exit)) return exit.value
  throw new Error(`expected a success, got ${String(exit.cause)}`)
}

describe("ProjectId", () => {
  const decode = Schema.decodeUnknownResult(ProjectId)

  it("is a DNS label in lower case: letters, digits and inner hyphens, 1 to 63 of them", () => {
    for (const valid of ["a", "handbook", "api-docs", "v2", "0", "a".repeat(63)]) {
      expect(Result.isSuccess(decode(valid)), valid).toBe(true)
    }
  })

  it("refuses upper case, outer hyphens, dots, underscores, the empty id and 64 characters", () => {
    for (const invalid of ["Handbook", "-docs", "docs-", "api.docs", "api_docs", "", "a".repeat(64), 7]) {
      expect(Result.isFailure(decode(invalid)), String(invalid)).toBe(true)
    }
  })

  it("is the label of the project's default hostname", () => {
    expect(defaultHostnameOf(id("handbook"), "docs.example-platform.com")).toBe(
      "handbook.docs.example-platform.com"
    )
  })
})

describe("plans", () => {
  it("are free, pro and enterprise; every one but free is paid (custom domains need a paid plan)", () => {
    expect(Plan.literals).toStrictEqual(["free", "pro", "enterprise"])
    expect(Plan.literals.map(isPaidPlan)).toStrictEqual([false, true, true])
    expect(Result.isFailure(Schema.decodeUnknownResult(Plan)("business"))).toBe(true)
  })
})

describe("deploys", () => {
  const project = new Project({
    id: id("handbook"),
    account: acme,
    plan: "pro",
    lastDeploy: null,
    lastSucceededDeployAt: null,
    createdAt: new Date(t0)
  })
  const at = (minutes: number) => new Date(t0 + minutes * 60_000)

  it("a new project has never been deployed", () => {
    expect(hasSucceededDeploy(project)).toBe(false)
  })

  it("a failed deploy is the last deploy but does not make the project deployed", () => {
    const failed = recordDeploy(project, new Deploy({ status: "failed", at: at(1) }))
    expect(failed.lastDeploy?.status).toBe("failed")
    expect(hasSucceededDeploy(failed)).toBe(false)
  })

  it("a failed deploy after a successful one leaves the successful one online", () => {
    const succeeded = recordDeploy(project, new Deploy({ status: "succeeded", at: at(1) }))
    const failed = recordDeploy(succeeded, new Deploy({ status: "failed", at: at(2) }))
    expect(failed.lastDeploy).toStrictEqual(new Deploy({ status: "failed", at: at(2) }))
    expect(failed.lastSucceededDeployAt).toStrictEqual(at(1))
    expect(hasSucceededDeploy(failed)).toBe(true)
  })
})

describe("createProject", () => {
  it("stores a new project of the account, never deployed, created now", async () => {
    const created = successOf(await run(createProject(acme, id("handbook"), "free")))
    expect(created).toStrictEqual(
      new Project({
        id: id("handbook"),
        account: acme,
        plan: "free",
        lastDeploy: null,
        lastSucceededDeployAt: null,
        createdAt: new Date(t0)
      })
    )
  })

  it("fails with ProjectIdTaken when any account has the id, its own or another", async () => {
    const own = await run(
      Effect.andThen(createProject(acme, id("handbook"), "free"), createProject(acme, id("handbook"), "pro"))
    )
    expect(failureOf(own)).toStrictEqual(new ProjectIdTaken({ id: "handbook" }))
    const other = await run(
      Effect.andThen(
        createProject(acme, id("handbook"), "free"),
        createProject(rival, id("handbook"), "free")
      )
    )
    expect(failureOf(other)).toStrictEqual(new ProjectIdTaken({ id: "handbook" }))
  })

  it("fails with LimitReached, naming the limit, past the account's projectsPerAccount", async () => {
    const three = Effect.forEach(["a", "b", "c"], (each) => createProject(acme, id(each), "free"))
    const exit = await run(three, { projectsPerAccount: 2 })
    expect(failureOf(exit)).toStrictEqual(new LimitReached({ limit: "projects per account", value: 2 }))
  })

  it("counts the limit per account: another account's projects do not use it up", async () => {
    const exit = await run(
      Effect.andThen(
        Effect.forEach(["a", "b"], (each) => createProject(acme, id(each), "free")),
        createProject(rival, id("c"), "free")
      ),
      { projectsPerAccount: 2 }
    )
    expect(successOf(exit).account).toBe(rival)
  })

  it("passes the store's StorageError on", async () => {
    const failing = Layer.succeed(
      ProjectRepository,
      ProjectRepository.of({
        insert: () => Effect.fail(new StorageError({ operation: "insert project", cause: "unreachable" })),
        findById: () => Effect.succeed(Option.none()),
        findOwned: () => Effect.succeed(Option.none()),
        listOwned: () => Effect.succeed({ projects: [], nextAfter: Option.none() }),
        update: () => Effect.void
      })
    )
    const exit = await Effect.runPromiseExit(
      createProject(acme, id("handbook"), "free").pipe(Effect.provide(failing))
    )
    expect(failureOf(exit)?._tag).toBe("StorageError")
  })
})

describe("findOwnedProject", () => {
  it("finds the account's own project", async () => {
    const exit = await run(
      Effect.andThen(createProject(acme, id("handbook"), "pro"), findOwnedProject(acme, id("handbook")))
    )
    expect(successOf(exit).plan).toBe("pro")
  })

  it("does not find another account's project: ProjectNotFound, as if there were none", async () => {
    const theirs = await run(
      Effect.andThen(createProject(acme, id("handbook"), "pro"), findOwnedProject(rival, id("handbook")))
    )
    const none = await run(findOwnedProject(rival, id("nothing")))
    expect(failureOf(theirs)).toStrictEqual(new ProjectNotFound({ id: "handbook" }))
    expect(failureOf(none)).toStrictEqual(new ProjectNotFound({ id: "nothing" }))
  })
})

describe("changePlan", () => {
  it("stores the new plan of the owner's project and keeps the rest", async () => {
    const exit = await run(
      Effect.gen(function* () {
        const created = yield* createProject(acme, id("handbook"), "free")
        const changed = yield* changePlan(acme, id("handbook"), "enterprise")
        const stored = yield* findOwnedProject(acme, id("handbook"))
        return { created, changed, stored }
      })
    )
    const { created, changed, stored } = successOf(exit)
    expect(changed).toStrictEqual(new Project({ ...created, plan: "enterprise" }))
    expect(stored).toStrictEqual(changed)
  })

  it("cannot change another account's project, and leaves it as it was", async () => {
    const exit = await run(
      Effect.gen(function* () {
        yield* createProject(acme, id("handbook"), "free")
        const refused = yield* Effect.flip(changePlan(rival, id("handbook"), "pro"))
        return { refused, stored: yield* findOwnedProject(acme, id("handbook")) }
      })
    )
    expect(successOf(exit).refused).toStrictEqual(new ProjectNotFound({ id: "handbook" }))
    expect(successOf(exit).stored.plan).toBe("free")
  })
})

describe("recordProjectDeploy", () => {
  it("records the deploy at the clock's time; a later failure keeps the project deployed", async () => {
    const exit = await run(
      Effect.gen(function* () {
        yield* createProject(acme, id("handbook"), "pro")
        yield* TestClock.adjust("1 minute")
        yield* recordProjectDeploy(acme, id("handbook"), "succeeded")
        yield* TestClock.adjust("1 minute")
        yield* recordProjectDeploy(acme, id("handbook"), "failed")
        return yield* findOwnedProject(acme, id("handbook"))
      })
    )
    const stored = successOf(exit)
    expect(stored.lastDeploy).toStrictEqual(new Deploy({ status: "failed", at: new Date(t0 + 120_000) }))
    expect(stored.lastSucceededDeployAt).toStrictEqual(new Date(t0 + 60_000))
    expect(hasSucceededDeploy(stored)).toBe(true)
  })

  it("is ProjectNotFound for another account's project", async () => {
    const exit = await run(
      Effect.andThen(
        createProject(acme, id("handbook"), "pro"),
        recordProjectDeploy(rival, id("handbook"), "succeeded")
      )
    )
    expect(failureOf(exit)).toStrictEqual(new ProjectNotFound({ id: "handbook" }))
  })
})

describe("listProjects", () => {
  const five = Effect.forEach(["echo", "alpha", "delta", "charlie", "bravo"], (each) =>
    createProject(acme, id(each), "free")
  )

  it("pages through the account's projects in ascending id order, the cursor present while more follow", async () => {
    const exit = await run(
      Effect.gen(function* () {
        yield* five
        yield* createProject(rival, id("foxtrot"), "free")
        const pages: Array<ReadonlyArray<string>> = []
        let after = Option.none<ProjectId>()
        do {
          const page = yield* listProjects(acme, { after, limit: 2 })
          pages.push(page.projects.map((project) => project.id))
          after = page.nextAfter
        } while (Option.isSome(after))
        return pages
      })
    )
    expect(successOf(exit)).toStrictEqual([["alpha", "bravo"], ["charlie", "delta"], ["echo"]])
  })

  it("has no cursor when the page holds the last project, and an empty page for an account with none", async () => {
    const exit = await run(
      Effect.gen(function* () {
        yield* five
        return {
          all: yield* listProjects(acme, { after: Option.none(), limit: 5 }),
          none: yield* listProjects(rival, { after: Option.none(), limit: 5 })
        }
      })
    )
    const { all, none } = successOf(exit)
    expect(all.projects).toHaveLength(5)
    expect(Option.isNone(all.nextAfter)).toBe(true)
    expect(none).toStrictEqual({ projects: [], nextAfter: Option.none() })
  })
})
