/**
 * @petstore/testing: what the storage adapters' tests share: a throwaway PostgreSQL database per
 * test file, and the repository contract suites every adapter must pass; and the real servers on
 * loopback (Redis, Pebble, pebble-challtestsrv, dnsmasq, a PostgreSQL of a test's own: containers when a container runtime answers,
 * else the machine's programs, tied to a scope) that other adapters' tests run against.
 */
export * from "./ApiKeyRepositoryContract.js"
export * from "./CertificateStoreContract.js"
export * from "./ClaimRepositoryContract.js"
export * as ContainerRuntime from "./ContainerRuntime.js"
export * as ContractFixtures from "./ContractFixtures.js"
export * as DnsServerProbe from "./DnsServerProbe.js"
export * from "./DomainEventRepositoryContract.js"
export * from "./DomainRepositoryContract.js"
export * from "./Eventually.js"
export * from "./Http01ChallengeStoreContract.js"
export * from "./IdempotencyRepositoryContract.js"
export * as LoopbackServer from "./LoopbackServer.js"
export * as NodeProcess from "./NodeProcess.js"
export * from "./OwnershipRepositoryContract.js"
export * from "./PetRepositoryContract.js"
export * from "./ProjectRepositoryContract.js"
export * from "./StorageHealthContract.js"
export * from "./StoreContract.js"
export * as TestChallengeServer from "./TestChallengeServer.js"
export * as TestDatabase from "./TestDatabase.js"
export * as TestDnsServer from "./TestDnsServer.js"
export * as TestPebbleServer from "./TestPebbleServer.js"
export * as TestPostgresCluster from "./TestPostgresCluster.js"
export * as TestRedis from "./TestRedis.js"
export * as TestServerProcess from "./TestServerProcess.js"
export * as TestServerSource from "./TestServerSource.js"
export * from "./WebhookDeliveryRepositoryContract.js"
export * from "./WebhookRepositoryContract.js"
