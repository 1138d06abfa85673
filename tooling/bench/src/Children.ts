/**
 * Every process the runner starts (servers, load generators), so that an interrupted or failed run
 * leaves none behind: exit and signal handlers kill what is still running.
 */
import type { ChildProcess } from "node:child_process"

const running = new Set<ChildProcess>()

/** Remembers `child` until it exits. */
export const track = (child: ChildProcess): ChildProcess => {
  running.add(child)
  child.once("exit", () => running.delete(child))
  return child
}

/** SIGKILLs every child still running (synchronous, so an `exit` handler may call it). */
export const killAllChildren = (): void => {
  for (const child of running) child.kill("SIGKILL")
  running.clear()
}
