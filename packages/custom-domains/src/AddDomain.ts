/**
 * Adding a custom domain to a project (contract sections 3 and 4): on a paid plan, once deployed, with
 * a valid hostname that another account's proved claim does not cover. The domain is pending, with
 * the DNS record to create and its TXT ownership record, required when another account has or
 * recently had the hostname; those accounts' domains are contested from then on.
 */
import type { AccountName } from "@petstore/kernel"
import { DateTime, Effect, Option } from "effect"
import type { CustomDomain } from "./CustomDomain.js"
import { newCustomDomain, withOwnershipRequired } from "./CustomDomainLifecycle.js"
import { CustomDomainRepository } from "./CustomDomainRepository.js"
import { type Decision, decideAndStore, noWrites } from "./DecidedWrites.js"
import { DeployRequired, InvalidDomainRequest, PlanRequired } from "./DomainErrors.js"
import { Limits } from "./Limits.js"
import { needsRecord, ownershipRequirement } from "./Ownership.js"
import { DomainClaimed } from "./OwnershipErrors.js"
import { ownershipOf } from "./OwnershipFacts.js"
import { OwnershipRepository } from "./OwnershipRepository.js"
import { isPaidPlan } from "./Plan.js"
import { customHostname, PlatformSettings } from "./PlatformSettings.js"
import { hasSucceededDeploy, type ProjectId } from "./Project.js"
import { findOwnedProject } from "./Projects.js"

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
