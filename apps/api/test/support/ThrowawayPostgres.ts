/**
 * A PostgreSQL server of the test's own, on a spare loopback port, that the test may stop and start
 * again, or pause (every process frozen, connections left open, as a hung database server is) and
 * resume: never the shared server. `@petstore/testing`'s TestPostgresCluster, as promises: a
 * container when a container runtime answers, else the machine's `initdb` and `pg_ctl`. Neither fails
 * the test with one line saying what to install, never a skip.
 */
import { TestPostgresCluster } from "@petstore/testing"
import { Effect, Exit, Scope } from "effect"

export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the cluster is the test's, so its default database is. */
  readonly url: string
  readonly start: () => Promise<void>
  /** A fast shutdown: open connections are cut, as when a database server goes away. */
  readonly stop: () => Promise<void>
  readonly remove: () => Promise<void>
  /** Freezes every process of the cluster: connections stay open and nothing answers. */
  readonly pause: () => Promise<void>
  /** Lets a paused cluster run again. */
  readonly resume: () => Promise<void>
}

export const startThrowawayPostgres = async (port: number): Promise<ThrowawayPostgres> => {
  const scope = Scope.makeUnsafe()
  const remove = () => Effect.runPromise(Scope.close(scope, Exit.void))
  const cluster = await Effect.runPromise(Scope.provide(scope)(TestPostgresCluster.make(port))).catch(
    async (error: unknown) => {
      await remove()
      throw error
    }
  )
  return {
    url: cluster.url,
    start: () => Effect.runPromise(cluster.start),
    stop: () => Effect.runPromise(cluster.stop),
    remove,
    pause: () => Effect.runPromise(cluster.pause),
    resume: () => Effect.runPromise(cluster.resume)
  }
}
