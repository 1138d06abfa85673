/**
 * Remove, from the menu next to a domain (contract section 3): from this moment the hostname is no
 * longer served or redirected; a verified one is released (contested for 30 days, see `Ownership`)
 * and its certificate forgotten.
 */

import { CertificateStore } from "@petstore/certificates"
import { CustomDomainRepository, DomainNotFound, defaultHostname } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { OwnershipRepository } from "@petstore/ownership"
import type { ProjectId } from "@petstore/projects"
import { DomainConfigRepository, withoutDomain } from "@petstore/serving"
import { DateTime, Effect, Option } from "effect"
import { getDomain } from "./OwnedDomains.js"

const now = DateTime.nowAsDate

/**
 * Removes the domain. What follows is decided from the row actually deleted, as it was then (a
 * check may have changed it since it was read): only a verified one was served with the hostname's
 * certificate and is a release of the name; another account's domain with the same hostname keeps
 * whatever the winner has.
 */
export const removeDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.gen(function* () {
    const domain = yield* getDomain(account, id, hostnameText)
    const configs = yield* DomainConfigRepository
    const stored = yield* configs.find(id)
    if (Option.isSome(stored)) {
      yield* configs.save(id, withoutDomain(stored.value, domain.hostname, yield* defaultHostname(id)))
    }
    const removed = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.remove(id, domain.hostname)
    )
    if (Option.isNone(removed)) return yield* new DomainNotFound({ hostname: hostnameText })
    if (removed.value.status === "verified") {
      const removedAt = yield* now
      yield* Effect.flatMap(OwnershipRepository, (ownership) =>
        ownership.recordRelease(account, domain.hostname, removedAt)
      )
      yield* Effect.flatMap(CertificateStore, (certificates) => certificates.remove(domain.hostname))
    }
  })
