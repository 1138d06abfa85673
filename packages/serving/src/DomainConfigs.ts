/**
 * The domain-config use cases: a project's config as its owner reads and sets it (checked against the
 * project's domains: see `validateDomainConfig`), and the config in force, the default one until the
 * owner sets one.
 */

import { CustomDomainRepository, defaultHostname, InvalidDomainRequest } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import { findOwnedProject } from "@petstore/projects"
import { Effect, Option, Result } from "effect"
import {
  type DomainConfig,
  defaultDomainConfig,
  normaliseDomainConfig,
  validateDomainConfig
} from "./DomainConfig.js"
import { DomainConfigRepository } from "./DomainConfigRepository.js"

/** The config in force for project `id`: the owner's, else served at the default hostname without redirects. */
export const domainConfigOf = (id: ProjectId) =>
  Effect.gen(function* () {
    const stored = yield* Effect.flatMap(DomainConfigRepository, (configs) => configs.find(id))
    return Option.isSome(stored) ? stored.value : defaultDomainConfig(yield* defaultHostname(id))
  })

export const getDomainConfig = (account: AccountName, id: ProjectId) =>
  Effect.andThen(findOwnedProject(account, id), domainConfigOf(id))

export const putDomainConfig = (account: AccountName, id: ProjectId, config: DomainConfig) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, id)
    const domains = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.listByProject(id)
    )
    const valid = yield* Result.match(
      validateDomainConfig(normaliseDomainConfig(config), yield* defaultHostname(id), domains),
      {
        onFailure: (rule) => Effect.fail(new InvalidDomainRequest({ message: rule })),
        onSuccess: Effect.succeed
      }
    )
    yield* Effect.flatMap(DomainConfigRepository, (configs) => configs.save(id, valid))
    return valid
  })
