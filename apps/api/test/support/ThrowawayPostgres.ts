/**
 * A PostgreSQL cluster of the test's own, on a spare loopback port, that the test may stop and start
 * again (never the shared server): `initdb` and `pg_ctl` from the machine's PostgreSQL (Debian keeps
 * them in `/usr/lib/postgresql/<version>/bin`), run as the `postgres` user when the tests run as root
 * (PostgreSQL refuses root). It can also be paused (every process stopped, connections left open), as
 * a hung database server is. Missing binaries fail the test with an install hint, never skip it.
 */
import { execFile } from "node:child_process"
import { readdirSync } from "node:fs"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { LoopbackServer } from "@petstore/testing"
import { Effect } from "effect"

const run = promisify(execFile)

/** Debian keeps each version's server programs in its own directory, not on PATH: newest first. */
const postgresBinDirectories = (): ReadonlyArray<string> => {
  try {
    return readdirSync("/usr/lib/postgresql")
      .sort()
      .reverse()
      .map((version) => join("/usr/lib/postgresql", version, "bin"))
  } catch {
    return []
  }
}

const hint =
  "the Postgres outage test starts a cluster of its own (apt-get install postgresql, or put PostgreSQL's bin directory on PATH)"

export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the cluster is the test's, so its default database is. */
  readonly url: string
  readonly start: () => Promise<void>
  /** A fast shutdown: open connections are cut, as when a database server goes away. */
  readonly stop: () => Promise<void>
  readonly remove: () => Promise<void>
  /** Freezes every process of the cluster (SIGSTOP): connections stay open and nothing answers. */
  readonly pause: () => Promise<void>
  /** Lets a paused cluster run again (SIGCONT). */
  readonly resume: () => Promise<void>
}

export const startThrowawayPostgres = async (port: number): Promise<ThrowawayPostgres> => {
  const pgCtl = await Effect.runPromise(LoopbackServer.findProgram("pg_ctl", hint, postgresBinDirectories()))
  const initdb = await Effect.runPromise(LoopbackServer.findProgram("initdb", hint, [dirname(pgCtl)]))
  const asRoot = process.getuid?.() === 0
  const directory = await mkdtemp(join(tmpdir(), "petstore-outage-"))
  if (asRoot) await run("chown", ["postgres", directory])
  const data = join(directory, "data")
  const command = async (path: string, args: ReadonlyArray<string>) => {
    await (asRoot ? run("runuser", ["-u", "postgres", "--", path, ...args]) : run(path, [...args]))
  }
  await command(initdb, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"])
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`
  const start = () => command(pgCtl, ["-D", data, "-o", options, "-l", join(directory, "log"), "-w", "start"])
  const stop = () => command(pgCtl, ["-D", data, "-m", "fast", "-w", "stop"])
  await start()
  const remove = async () => {
    await stop().catch(() => undefined)
    await rm(directory, { recursive: true, force: true })
  }
  /** The postmaster (first line of `postmaster.pid`) and its children: every process of the cluster. */
  const processes = async (): Promise<ReadonlyArray<string>> => {
    const postmaster = (await readFile(join(data, "postmaster.pid"), "utf8")).split("\n")[0]?.trim() ?? ""
    const children = await new Promise<string>((resolve) =>
      execFile("pgrep", ["-P", postmaster], (_error, stdout) => resolve(stdout))
    )
    return [postmaster, ...children.split("\n").filter((pid) => pid.trim() !== "")]
  }
  const signal = async (name: "SIGSTOP" | "SIGCONT") => {
    for (const pid of await processes()) process.kill(Number(pid), name)
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove: async () => {
      await signal("SIGCONT").catch(() => undefined)
      await remove()
    },
    pause: () => signal("SIGSTOP"),
    resume: () => signal("SIGCONT")
  }
}
