/**
 * @petstore/thrown: what the adapters say about a value some library threw or rejected with. Pure,
 * with no dependency, so that any adapter may use it without importing another adapter.
 */
export * as Thrown from "./Thrown.js"
