export { default } from "../vitest/vitest.shared.ts"
