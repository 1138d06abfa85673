import shared from "@petstore/vitest-config"
import { mergeConfig } from "vitest/config"

export default mergeConfig(shared, { test: { globalSetup: ["./test/support/globalBuild.ts"] } })
