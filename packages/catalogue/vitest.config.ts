export { default } from "../../tooling/vitest/vitest.shared.ts"
