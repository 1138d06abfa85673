/**
 * Test support other packages reuse (`@petstore/http/testing`): a real server over any storage, and
 * the HTTP contract suite and the fuzzing suite every storage must pass through it.
 */
export * from "./FixedClock.js"
export * from "./FuzzSuite.js"
export * from "./PetsApiSuite.js"
export * from "./TestServer.js"
