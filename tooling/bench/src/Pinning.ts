/**
 * CPU pinning with `taskset` (util-linux): each server gets core 0 and the load generator core 1, so
 * neither steals the other's time. Without `taskset` (or with fewer than two cores) processes run
 * unpinned and the report says so.
 */
import { accessSync, constants } from "node:fs"
import { availableParallelism } from "node:os"

const tasksetPath = ["/usr/bin/taskset", "/bin/taskset", "/usr/local/bin/taskset"].find((path) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
})

export const pinningAvailable: boolean = tasksetPath !== undefined && availableParallelism() >= 2

/** The command line that runs `command args` on `core` (`taskset` execs it: the pid stays the same). */
export const pinned = (
  core: number,
  command: string,
  args: ReadonlyArray<string>
): readonly [string, Array<string>] =>
  pinningAvailable && tasksetPath !== undefined
    ? [tasksetPath, ["-c", String(core), command, ...args]]
    : [command, [...args]]

export const serverCore = 0
export const loadCore = 1
