/**
 * How a decision about a contested hostname is stored: `DecidedWritesStore.storeDecided` writes every
 * domain of a decision (the winner and the domains that lose the name to it) all or nothing, each
 * only while it is still at the version it was decided from, and never leaves two verified domains
 * of one hostname. `decideAndStore` decides again from what won when another write came first.
 */
import {
  applyVerdict,
  CustomDomain,
  type CustomDomainKey,
  Hostname,
  loseOwnership,
  newCustomDomain,
  OwnershipToken
} from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { DecidedWritesStore, decideAndStore, ownershipLostProblem, writtenDomain } from "@petstore/ownership"
import { Effect, Layer } from "effect"

const at = new Date("2027-03-01T12:00:00.000Z")
const hostname = Hostname.make("docs.example.com")
// A project's id, as the domain record's schema reads it.
const projectId = (id: string) => CustomDomain.fields.projectId.make(id)
const domainOf = (account: string, project: string) =>
  newCustomDomain(
    { account: AccountName.make(account), projectId: projectId(project) },
    hostname,
    { token: OwnershipToken.make("5f0c2a9e7b3d41c8a6e2f0b9d7c5a3e1"), required: true },
    "cname.example-sites.net",
    at
  )

// The stored domains, by project and hostname: a squatter's verified domain, and the owner's pending one.
const keyOf = (domain: CustomDomainKey) => `${domain.projectId} ${domain.hostname}`
const stored = new Map<string, CustomDomain>()
for (const domain of [
  applyVerdict(domainOf("squatter", "squat"), { _tag: "Verified", problems: [] }, at),
  domainOf("owner", "handbook")
]) {
  stored.set(keyOf(domain), domain)
}
const current = (project: string) => stored.get(`${project} ${hostname}`) as CustomDomain

// The port in memory. One fiber writes here, so checking every row first and then writing them all
// is atomic; a SQL store does it in one transaction, with `version = $decided` on every update and a
// unique index on the hostname of verified domains.
const MemoryDecidedWrites = Layer.succeed(
  DecidedWritesStore,
  DecidedWritesStore.of({
    storeDecided: ({ domains }) =>
      Effect.sync(() => {
        const asDecided = domains.every((domain) => stored.get(keyOf(domain))?.version === domain.version)
        const after = new Map(stored)
        for (const domain of domains) after.set(keyOf(domain), domain)
        const verified = [...after.values()].filter(
          (domain) => domain.hostname === hostname && domain.status === "verified"
        )
        if (!asDecided || verified.length > 1) return false
        for (const domain of domains) stored.set(keyOf(domain), writtenDomain(domain))
        return true
      })
  })
)

/** The owner proved the name: its domain verifies, and the squatter's loses it. Decided from what is stored now. */
const ownerProves = Effect.sync(() => {
  const winner = applyVerdict(current("handbook"), { _tag: "Verified", problems: [] }, at)
  const loser = loseOwnership(current("squat"), ownershipLostProblem(hostname, "proved"), at)
  return { answer: winner, writes: { domains: [winner, loser], claims: [] } }
})

const program = Effect.gen(function* () {
  const store = yield* DecidedWritesStore
  const decided = yield* ownerProves

  // Half a decision would leave two verified domains of one hostname: refused, nothing written.
  console.log(yield* store.storeDecided({ domains: [decided.answer], claims: [] }))

  // Another write comes first (the squatter's domain is checked again): the decision is stale.
  const squat = current("squat")
  stored.set(keyOf(squat), writtenDomain(squat))
  console.log(yield* store.storeDecided(decided.writes), current("squat").status, current("squat").version)

  // decideAndStore decides again from what won, and stores it whole.
  let decisions = 0
  const winner = yield* decideAndStore(
    Effect.tap(ownerProves, () => Effect.sync(() => decisions++)),
    Effect.sync(() => current("handbook"))
  )
  console.log(winner.status, decisions)
  console.log(
    [...stored.values()].map((domain) => [domain.account, domain.status, domain.version]),
    current("squat").verification.problems.map((problem) => problem.code)
  )
})

Effect.runPromise(program.pipe(Effect.provide(MemoryDecidedWrites)))

// Output:
// false
// false verified 1
// verified 1
// [ [ 'squatter', 'failed', 2 ], [ 'owner', 'verified', 1 ] ] [ 'ownership_lost' ]
