/**
 * Where a server a test needs comes from, decided the same way for every server: a container when a
 * container runtime answers, else the machine's own program, else the tests fail with one line naming
 * the server and how to get it (never a skip). The probes are parameters, so the decision is tested
 * without Docker or the programs.
 */
import { Effect, Option } from "effect"
import * as ContainerRuntime from "./ContainerRuntime.js"
import { installedOr, type LoopbackServerError, locateProgram } from "./LoopbackServer.js"

export interface TestServer {
  /** The program's name on PATH, and what messages call the server: `pebble`. */
  readonly program: string
  /** What installs the program: "Debian's `pebble` package". */
  readonly install: string
  /** A variable naming a running server the tests may use instead, when the server has one. */
  readonly variable?: string
  /** Directories off PATH where the program may also be (PostgreSQL's `/usr/lib/postgresql/<version>/bin`). */
  readonly elsewhere?: ReadonlyArray<string>
}

export type Source = { readonly _tag: "Container" } | { readonly _tag: "LocalProgram"; readonly path: string }

/** What the decision asks of the machine. */
export interface Probes {
  readonly variable: (name: string) => string | undefined
  readonly containerRuntime: Effect.Effect<boolean>
  readonly locateProgram: (
    program: string,
    elsewhere: ReadonlyArray<string>
  ) => Effect.Effect<Option.Option<string>>
}

export const liveProbes: Probes = {
  variable: (name) => process.env[name],
  containerRuntime: ContainerRuntime.reachable,
  locateProgram
}

/** The one line the tests fail with when neither a container runtime nor the program is there. */
export const unavailableMessage = (server: TestServer): string =>
  `${server.program}: not found; ${server.variable === undefined ? "" : `set ${server.variable}, `}` +
  `install ${server.install} or start Docker`

/** The value of `variable` when it is set (an empty value counts as unset). */
export const configured = (variable: string, probes: Probes = liveProbes): Option.Option<string> =>
  Option.filter(Option.fromNullishOr(probes.variable(variable)), (value) => value !== "")

/** The program's path, found on PATH or where the server says, else the one line. */
export const locate = (
  server: TestServer,
  probes: Probes = liveProbes
): Effect.Effect<string, LoopbackServerError> =>
  Effect.flatMap(
    probes.locateProgram(server.program, server.elsewhere ?? []),
    installedOr(unavailableMessage(server))
  )

/** A container when a runtime answers, else the local program; neither fails with `unavailableMessage`. */
export const choose = (
  server: TestServer,
  probes: Probes = liveProbes
): Effect.Effect<Source, LoopbackServerError> =>
  Effect.flatMap(probes.containerRuntime, (runtime) =>
    runtime
      ? Effect.succeed<Source>({ _tag: "Container" })
      : Effect.map(locate(server, probes), (path): Source => ({ _tag: "LocalProgram", path }))
  )
