/**
 * `pnpm lint`'s structure checks (`Workspace.ts`) on this repository: prints each failure (the file, the
 * rule, what is wrong and what to do) and exits 1, or prints one line of what it checked.
 */
import { fileURLToPath } from "node:url"
import { checkWorkspace, describeFailure, describeSuccess } from "./Workspace.ts"

const report = checkWorkspace(fileURLToPath(new URL("../../..", import.meta.url)))
if (report.failures.length > 0) {
  for (const failure of report.failures) console.error(`  error ${describeFailure(failure)}`)
  const count = report.failures.length
  console.error(`\nx ${count} structure ${count === 1 ? "violation" : "violations"}.`)
  process.exitCode = 1
} else {
  console.log(describeSuccess(report))
}
