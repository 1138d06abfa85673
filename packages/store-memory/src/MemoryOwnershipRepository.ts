/**
 * OwnershipRepository in memory: tokens per account and name, made once from `node:crypto` (128
 * bits) and kept; the latest release per account and hostname. A token is made before the atomic
 * `Ref` update that stores it unless one is there already, so concurrent callers all get the token
 * stored first.
 */
import { randomBytes } from "node:crypto"
import { type OwnershipToken, ownershipTokenBytes, ownershipTokenFrom } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { type HostnameRelease, OwnershipRepository } from "@petstore/ownership"
import { Effect, HashMap, Layer, Option, Ref } from "effect"

// Neither an account name nor a DNS name has a line break, so the pair's text names it alone.
const keyOf = (account: AccountName, name: string): string => `${account}\n${name}`

const freshToken: Effect.Effect<OwnershipToken> = Effect.sync(() =>
  ownershipTokenFrom(randomBytes(ownershipTokenBytes))
)

export const make: Effect.Effect<OwnershipRepository["Service"]> = Effect.gen(function* () {
  const tokens = yield* Ref.make(HashMap.empty<string, OwnershipToken>())
  const releases = yield* Ref.make(HashMap.empty<string, HostnameRelease>())
  return OwnershipRepository.of({
    tokenFor: (account, name) =>
      Effect.flatMap(freshToken, (fresh) =>
        Ref.modify(tokens, (current): [OwnershipToken, HashMap.HashMap<string, OwnershipToken>] => {
          const key = keyOf(account, name)
          const stored = HashMap.get(current, key)
          return Option.isSome(stored) ? [stored.value, current] : [fresh, HashMap.set(current, key, fresh)]
        })
      ),
    recordRelease: (account, hostname, at) =>
      Ref.update(releases, (current) => {
        const key = keyOf(account, hostname)
        const stored = HashMap.get(current, key)
        return Option.exists(stored, (release) => release.releasedAt.getTime() >= at.getTime())
          ? current
          : HashMap.set(current, key, { account, hostname, releasedAt: at })
      }),
    releasesSince: (hostnames, since) =>
      Effect.map(Ref.get(releases), (current) =>
        [...HashMap.values(current)]
          .filter(
            (release) =>
              hostnames.includes(release.hostname) && release.releasedAt.getTime() > since.getTime()
          )
          .sort((a, b) => a.releasedAt.getTime() - b.releasedAt.getTime())
      )
  })
})

export const layer: Layer.Layer<OwnershipRepository> = Layer.effect(OwnershipRepository, make)
