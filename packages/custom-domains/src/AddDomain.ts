/**
 * Adding a custom domain to a project (contract sections 3 and 4): on a paid plan, once deployed, with
 * a valid hostname that another account's proved claim does not cover. The domain is pending, with
 * the DNS record to create and its TXT ownership record, required when another account has or
 * recently had the hostname; those accounts' domains are contested from then on.
 */

import type { CustomDomain } from "@petstore/domains"
import {
  CustomDomainRepository,
  customHostname,
  DeployRequired,
  InvalidDomainRequest,
  newCustomDomain,
  PlanRequired,
  PlatformSettings,
  withOwnershipRequired
} from "@petstore/domains"
import type { AccountName } from "@petstore/kernel"
import { Limits } from "@petstore/kernel"
import {
  type Decision,
  DomainClaimed,
  decideAndStore,
  needsRecord,
  noWrites,
  OwnershipRepository,
  ownershipOf,
  ownershipRequirement
} from "@petstore/ownership"
import { findOwnedProject, hasSucceededDeploy, isPaidPlan, type ProjectId } from "@petstore/projects"
import { DateTime, Effect, Option } from "effect"

const now = DateTime.nowAsDate

export const addDomain = (account: AccountName, id: ProjectId, hostnameText: string) =>
  Effect.gen(function* () {
    const project = yield* findOwnedProject(account, id)
    const settings = yield* PlatformSettings
    const hostname = yield* customHostname(hostnameText).pipe(
      Effect.mapError((rule) => new InvalidDomainRequest({ message: `hostname: ${rule}` }))
    )
    if (!isPaidPlan(project.plan)) return yield* new PlanRequired()
    if (!hasSucceededDeploy(project)) return yield* new DeployRequired()
    const addedAt = yield* now
    const { facts, rivals } = yield* ownershipOf({ account, hostname })
    const requirement = ownershipRequirement(account, facts, addedAt)
    if (requirement._tag === "ClaimedByOther") return yield* new DomainClaimed({ hostname })
    const token = yield* Effect.flatMap(OwnershipRepository, (ownership) =>
      ownership.tokenFor(account, hostname)
    )
    const domain = newCustomDomain(
      { account, projectId: id },
      hostname,
      { token, required: needsRecord(requirement) },
      settings.cnameTarget,
      addedAt
    )
    const limits = yield* Limits
    yield* Effect.flatMap(CustomDomainRepository, (repository) => repository.insert(domain, limits))
    // The other accounts' domains are contested from now on: their record is required too.
    yield* Effect.forEach(rivals, markContested, { discard: true })
    return domain
  })

/**
 * `rival` shows its record as required, decided again from the stored domain should it change
 * meanwhile.
 */
const markContested = (rival: CustomDomain) =>
  decideAndStore(
    Effect.map(
      Effect.flatMap(CustomDomainRepository, (repository) =>
        repository.findInProject(rival.projectId, rival.hostname)
      ),
      (stored): Decision<void> => ({
        answer: undefined,
        writes:
          Option.isNone(stored) || stored.value.ownership.required
            ? noWrites
            : { domains: [withOwnershipRequired(stored.value, true)], claims: [] }
      })
    ),
    Effect.void
  )
