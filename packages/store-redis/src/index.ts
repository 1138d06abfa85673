/**
 * @petstore/store-redis: the rate-limit counters shared by a service's replicas, kept in Redis. The
 * Redis client (`IoRedis`, over ioredis) is loaded only when a store is made.
 */
export * as RedisRateLimiterStore from "./RedisRateLimiterStore.js"
