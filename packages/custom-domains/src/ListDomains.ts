/**
 * A project's domains and its domain config, as its owner lists them (another account's project is
 * not found).
 */
import type { AccountName } from "@petstore/kernel"
import { Effect } from "effect"
import { CustomDomainRepository } from "./CustomDomainRepository.js"
import { domainConfigOf } from "./DomainConfigs.js"
import type { ProjectId } from "./Project.js"
import { findOwnedProject } from "./Projects.js"

export const listDomains = (account: AccountName, id: ProjectId) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, id)
    const domains = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.listByProject(id)
    )
    return { domains, config: yield* domainConfigOf(id) }
  })
