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

/** The program in its image on the host's network, removed when the scope closes. */
const startContainer = (
  program: ServerProgram,
  invocation: Invocation
): Effect.Effect<Running, LoopbackServerError, Scope.Scope> => {
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
  ).pipe(Effect.as<Running>({ output: () => output, exited: () => exited }))
}

/** Runs `program` as `invocation(source)` says for where it runs, until `ready` succeeds. */
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
        ? yield* startContainer(program, how)
        : yield* spawnScoped(source.path, how.args, how.environment)
    const name =
      source._tag === "Container"
        ? // On Docker Desktop a host-network container is reachable only with its host networking on.
          `${program.program} (${program.image.name} on the host's network: Docker Desktop needs Settings › Resources › Network › Enable host networking)`
        : program.program
    yield* awaitReady(name, running, how.ready, how.readyWithin ?? Duration.seconds(10))
  })
