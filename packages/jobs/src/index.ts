/**
 * @petstore/jobs: the loops the apps run for the life of their process, around the domain's rounds of
 * work: custom-domain checks, claim rechecks and webhook deliveries (the worker's, which the API runs
 * too on storage only it can open), and the purges of expired idempotency keys and events (the
 * API's). They take their options as plain values; the apps read them from their configuration.
 */
export * from "./CustomDomainCheckLoop.js"
export * from "./DeliveryLoop.js"
export * from "./EventsPurgeLoop.js"
export * from "./IdempotencyPurgeLoop.js"
export * from "./PurgeLoop.js"
export * from "./RoundLoop.js"
