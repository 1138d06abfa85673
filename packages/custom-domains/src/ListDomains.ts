/**
 * A project's domains and its domain config, as its owner lists them (another account's project is
 * not found).
 */

import { CustomDomainRepository } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import { findOwnedProject } from "@petstore/projects"
import { domainConfigOf } from "@petstore/serving"
import { Effect } from "effect"

export const listDomains = (account: AccountName, id: ProjectId) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, id)
    const domains = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.listByProject(id)
    )
    return { domains, config: yield* domainConfigOf(id) }
  })
