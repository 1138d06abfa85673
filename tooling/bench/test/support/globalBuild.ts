/**
 * Vitest global setup: the tests spawn the built product, the built baselines and the built runner,
 * so `@petstore/bench` and everything it depends on (the api app among them) are built once per run.
 */
import { buildOnceForTests } from "@petstore/testing/build"

export default buildOnceForTests("@petstore/bench")
