/**
 * Whether a container runtime (Docker, Podman, Colima…) answers, as Testcontainers finds one
 * (`DOCKER_HOST`, `~/.testcontainers.properties`, the usual sockets): what decides whether a test
 * server runs in a container or from the machine's own programs.
 */
import { Effect } from "effect"

/** True when Testcontainers can reach a runtime; never fails (no runtime is an answer too). */
export const reachable: Effect.Effect<boolean> = Effect.tryPromise(async () => {
  const { getContainerRuntimeClient } = await import("testcontainers")
  await getContainerRuntimeClient()
}).pipe(
  Effect.as(true),
  Effect.orElseSucceed(() => false)
)
