/**
 * A domain as its project's owner names it: through the owner's project (another account's project
 * is not found) and by a hostname from a path, which is normalised first (anything that does not
 * normalise names no domain).
 */

import { CustomDomainRepository, customHostname, DomainNotFound } from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import type { ProjectId } from "@petstore/projects"
import { findOwnedProject } from "@petstore/projects"
import { Effect, Option } from "effect"

/** A hostname from a path: anything that does not normalise names no domain. */
export const getDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.gen(function* () {
    yield* findOwnedProject(account, id)
    const notFound = new DomainNotFound({ hostname: hostnameText })
    const hostname = yield* customHostname(hostnameText).pipe(Effect.mapError(() => notFound))
    const found = yield* Effect.flatMap(CustomDomainRepository, (repository) =>
      repository.findInProject(id, hostname)
    )
    return yield* Option.match(found, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
  })
