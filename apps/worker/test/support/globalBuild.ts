/**
 * Vitest global setup: the tests spawn the built worker process, so it is built once per run.
 */
import { buildOnceForTests } from "@petstore/testing/build"

export default buildOnceForTests("@petstore/worker-app")
