export { default } from "@petstore/vitest-config"
