/**
 * Events of custom domains (contract section 5): every change of a domain or of its certificate is
 * an event, stored in the same transaction as the change (an outbox), and read by its project's
 * owner oldest first. Which events a change makes is a pure function of the domain before and after
 * it (`domainEventTypes`), so that every store, whichever write it does, tells the same story.
 * Claims have no events of their own: what a claim changes is a change of domains, with theirs.
 */

import { type CustomDomain, CustomDomainResource, Hostname } from "@petstore/domains"
import { Timestamp } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { Duration, Schema } from "effect"

export const DomainEventType = Schema.Literals([
  "domain.added",
  "domain.verified",
  "domain.failed",
  "domain.removed",
  "domain.problems_changed",
  "certificate.issued",
  "certificate.delayed",
  "certificate.failed",
  "certificate.renewed",
  "certificate.renewal_failed"
])
export type DomainEventType = typeof DomainEventType.Type

/** An event's id: decimal digits of a number that grows with every event stored (the paging cursor). */
const domainEventIdPattern = /^[1-9][0-9]{0,18}$/

export const DomainEventId = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(domainEventIdPattern, {
      message: "must be an event id",
      toJsonSchema: () => ({ pattern: domainEventIdPattern.source })
    })
  ),
  Schema.brand("DomainEventId"),
  Schema.annotate({ identifier: "EventId", description: "An event's id, increasing with each event." })
)
export type DomainEventId = typeof DomainEventId.Type

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class DomainEvent extends Schema.Class<DomainEvent>("Event")(
  Schema.Struct({
    id: DomainEventId,
    type: DomainEventType,
    occurredAt: Timestamp,
    projectId: ProjectId,
    hostname: Hostname,
    /** The domain as it was after the change (as it was before it, for `domain.removed`). */
    data: CustomDomainResource
  }).annotate({ identifier: "Event" })
) {}

/** How long events are kept. */
export const eventRetention = Duration.days(30)

const problemsOf = (domain: CustomDomain): string =>
  JSON.stringify([
    domain.verification.problems.map((problem) => [problem.code, problem.message, problem.found ?? []]),
    domain.certificate.problems.map((problem) => [problem.code, problem.message, problem.found ?? []])
  ])

/** The certificate events of a change of a domain that exists before and after it. */
const certificateEventTypes = (before: CustomDomain, after: CustomDomain): ReadonlyArray<DomainEventType> => {
  const was = before.certificate
  const is = after.certificate
  if (is.status === "issued") {
    if (was.status !== "issued") return ["certificate.issued"]
    return was.issuedAt?.getTime() === is.issuedAt?.getTime() ? [] : ["certificate.renewed"]
  }
  if (is.status === was.status) return []
  switch (is.status) {
    case "delayed":
      return ["certificate.delayed"]
    case "failed":
      return ["certificate.failed"]
    default:
      return []
  }
}

/**
 * A renewal the CA refused keeps the issued certificate (it is still served) with the problem shown:
 * `certificate.renewal_failed` when that problem appears on an issued certificate.
 */
const renewalFailed = (before: CustomDomain, after: CustomDomain): boolean =>
  before.certificate.status === "issued" &&
  after.certificate.status === "issued" &&
  before.certificate.issuedAt?.getTime() === after.certificate.issuedAt?.getTime() &&
  after.certificate.problems.some((problem) => problem.code === "issuance_failed") &&
  !before.certificate.problems.some((problem) => problem.code === "issuance_failed")

/**
 * The events a change of a domain makes, in the order they happened: `before` undefined is an
 * addition, `after` undefined a removal. A change of problems alone (what the owner sees) is
 * `domain.problems_changed`; one that comes with a change of status or certificate is told by those.
 */
export const domainEventTypes = (
  before: CustomDomain | undefined,
  after: CustomDomain | undefined
): ReadonlyArray<DomainEventType> => {
  if (before === undefined) return after === undefined ? [] : ["domain.added"]
  if (after === undefined) return ["domain.removed"]
  const status: ReadonlyArray<DomainEventType> =
    before.status === after.status
      ? []
      : after.status === "verified"
        ? ["domain.verified"]
        : after.status === "failed"
          ? ["domain.failed"]
          : []
  const certificate = renewalFailed(before, after)
    ? (["certificate.renewal_failed"] as const)
    : certificateEventTypes(before, after)
  const told = [...status, ...certificate]
  if (told.length > 0) return told
  return problemsOf(before) === problemsOf(after) ? [] : ["domain.problems_changed"]
}
