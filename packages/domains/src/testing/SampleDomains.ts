/**
 * Test support: a new domain for the tests of pure rules, which care about its hostname, project and
 * time but not whose it is: one account and one ownership token stand for any.
 */
import { AccountName } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { type CustomDomain, Hostname, newCustomDomain, OwnershipToken } from "../index.js"

const sampleAccount = AccountName.make("acme")
export const sampleToken = OwnershipToken.make("0123456789abcdef0123456789abcdef")

/** `newCustomDomain` of the sample account's project `projectId`, its ownership record not required. */
export const addedDomain = (hostname: string, projectId: string, target: string, now: Date): CustomDomain =>
  newCustomDomain(
    { account: sampleAccount, projectId: ProjectId.make(projectId) },
    Hostname.make(hostname),
    { token: sampleToken, required: false },
    target,
    now
  )
