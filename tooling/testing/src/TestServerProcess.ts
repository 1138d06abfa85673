/**
 * A server program run for a test's scope, from where `TestServerSource` says: the machine's own
 * binary, or the same program in a pinned container image. The container runs on the host's network,
 * so both run with the same command line, listen on the same loopback ports and reach the same
 * loopback addresses (Pebble validates HTTP-01 on the test's own loopback listener). Either way the
 * server is ready when `ready` succeeds, and is stopped when the scope closes.
 */
import type { Readable } from "node:stream"
import { Duration, Effect, type Scope } from "effect"
import { awaitReady, LoopbackServerError, type Running, spawnScoped } from "./LoopbackServer.js"
import * as TestServerSource from "./TestServerSource.js"

export interface ServerImage {
  /** The image, with a pinned tag: `ghcr.io/letsencrypt/pebble:2.9.0`. */
  readonly name: string
  /** The program's path in the image; the command line follows it. */
  readonly entrypoint: string
  /** A directory whose `Dockerfile` builds the image (tagged `name`), for a program no image publishes. */
  readonly dockerfileDirectory?: string
}

export interface ServerProgram extends TestServerSource.TestServer {
  readonly image: ServerImage
}

export interface Invocation {
  readonly args: ReadonlyArray<string>
  readonly environment?: Readonly<Record<string, string>>
  /** Directories the program reads (its configuration), copied into a container at the same path. */
  readonly directories?: ReadonlyArray<string>
  /** Succeeds once the server answers; a failure only means "not yet". */
  readonly ready: Effect.Effect<void, unknown>
  /** How long `ready` may keep failing (10 s by default). */
  readonly readyWithin?: Duration.Input
}

const causeMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** The image, built from its Dockerfile first when it has one (Docker's cache makes a rebuild instant). */
const containerFor = async (image: ServerImage) => {
  const { GenericContainer } = await import("testcontainers")
  return image.dockerfileDirectory === undefined
    ? new GenericContainer(image.name)
    : GenericContainer.fromDockerfile(image.dockerfileDirectory).build(image.name, { deleteOnExit: false })
}

/** A container running a server program: what it printed, and its id for the runtime's client. */
export interface StartedContainer {
  readonly running: Running
  readonly id: string
}

/** The program in its image on the host's network, removed when the scope closes; not waited for. */
export const startContainer = (
  program: ServerProgram,
  invocation: Invocation
): Effect.Effect<StartedContainer, LoopbackServerError, Scope.Scope> => {
  let output = ""
  let exited: string | undefined
  const collect = (stream: Readable) => {
    stream.on("data", (chunk: string | Buffer) => {
      output += chunk.toString()
    })
    stream.on("end", () => {
      exited = "stopped"
    })
  }
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: async () =>
        (await containerFor(program.image))
          .withNetworkMode("host")
          .withEntrypoint([program.image.entrypoint])
          .withCommand([...invocation.args])
          .withEnvironment({ ...invocation.environment })
          .withCopyDirectoriesToContainer(
            (invocation.directories ?? []).map((directory) => ({ source: directory, target: directory }))
          )
          .withLogConsumer(collect)
          .start(),
      catch: (cause) =>
        new LoopbackServerError({
          reason: "NotStarted",
          message: `${program.program}: a container runtime answers but ${program.image.name} did not start: ${causeMessage(cause)}`,
          cause
        })
    }),
    (container) => Effect.promise(() => container.stop()).pipe(Effect.ignore)
  ).pipe(
    Effect.map((container) => ({
      running: { output: () => output, exited: () => exited },
      id: container.getId()
    }))
  )
}

/** Until `invocation.ready` succeeds; a container's name in the message says what host networking needs. */
export const awaitServer = (
  program: ServerProgram,
  source: TestServerSource.Source,
  running: Running,
  invocation: Invocation
): Effect.Effect<void, LoopbackServerError> =>
  awaitReady(
    source._tag === "Container"
      ? `${program.program} (${program.image.name} on the host's network: Docker Desktop needs Settings › Resources › Network › Enable host networking)`
      : program.program,
    running,
    invocation.ready,
    invocation.readyWithin ?? Duration.seconds(10)
  )

/** Runs `program` from where `TestServerSource` says, as `invocation(source)` says for there, until ready. */
export const start = (
  program: ServerProgram,
  invocation: (source: TestServerSource.Source) => Invocation,
  probes: TestServerSource.Probes = TestServerSource.liveProbes
): Effect.Effect<void, LoopbackServerError, Scope.Scope> =>
  Effect.gen(function* () {
    const source = yield* TestServerSource.choose(program, probes)
    const how = invocation(source)
    const running =
      source._tag === "Container"
        ? (yield* startContainer(program, how)).running
        : yield* spawnScoped(source.path, how.args, how.environment)
    yield* awaitServer(program, source, running, how)
  })
