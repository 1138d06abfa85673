import { mergeConfig } from "vitest/config"
import shared from "../../tooling/vitest/vitest.shared.ts"

export default mergeConfig(shared, { test: { globalSetup: ["./test/support/globalBuild.ts"] } })
