/**
 * The worker's step on a verified domain's certificate, through the ports: before opening an order,
 * run the checks a CA would (does the domain still verify, do CAA records allow the configured CA),
 * so that an order the CA must refuse is never placed, and show what they find at once; poll an open
 * order; store an issued certificate with its key. The diagnosis of a late certificate is the same
 * checks, run again when the delay (`CertificateDelay`) is due. The transitions themselves are
 * IssuanceSchedule's pure functions.
 */

import type { CustomDomain, Problem } from "@petstore/domains"
import { observeDomain, PlatformSettings } from "@petstore/domains"
import { Clock, Effect } from "effect"
import { caaProblem, checkCaa } from "./CaaPolicy.js"
import { CertificateIssuer, CertificateStore, type OrderState } from "./CertificateIssuer.js"
import { CertificateDelay, diagnoseDelay } from "./CertificateLifecycle.js"
import {
  attemptBlocked,
  caUnreachable,
  certificateIssued,
  checksFound,
  isDelayDue,
  isIssuanceDue,
  isRenewal,
  orderRefused,
  orderStarted,
  orderWaiting,
  renewCertificate
} from "./IssuanceSchedule.js"

/**
 * The three checks the specification tells a person to run, run by the service: the domain checked
 * again (its owner may have changed DNS since it verified, even a moment ago) and the CAA rule for
 * the configured CA. Empty: nothing stands in the way.
 */
export const diagnoseCertificate = (domain: CustomDomain) =>
  Effect.gen(function* () {
    const { caIdentifier } = yield* PlatformSettings
    const [observed, caa] = yield* Effect.all(
      [observeDomain(domain), checkCaa(domain.hostname, caIdentifier)],
      { concurrency: "unbounded" }
    )
    return diagnoseDelay({
      hostname: domain.hostname,
      verdict: observed,
      caaProblem: caaProblem(domain.hostname, caIdentifier, caa)
    })
  })

/** A finished order: the certificate stored and `issued`, or the CA's refusal with the diagnosis. */
const settle = (
  domain: CustomDomain,
  state: Extract<OrderState, { readonly _tag: "Valid" | "Invalid" }>,
  now: Date
) =>
  Effect.gen(function* () {
    if (state._tag === "Invalid") {
      return orderRefused(domain, state.reason, yield* diagnoseCertificate(domain), now)
    }
    const { certificatePem, chainPem, notAfter, privateKeyPem } = state
    const kept = yield* Effect.flatMap(CertificateStore, (store) =>
      store.save(domain, { certificatePem, chainPem, privateKeyPem, notAfter })
    )
    // Not kept: the domain changed since it was leased (that write ended the lease, so this result
    // is not stored either); it is told as it was.
    if (!kept) return domain
    // CAs backdate notBefore; the owner is told when the certificate actually arrived.
    return certificateIssued(domain, { issuedAt: now, expiresAt: notAfter })
  })

const isFinished = (
  state: OrderState
): state is Extract<OrderState, { readonly _tag: "Valid" | "Invalid" }> =>
  state._tag === "Valid" || state._tag === "Invalid"

/**
 * Moves the certificate of `domain` on, when work on it is due at the clock's time; otherwise returns
 * it unchanged.
 */
export const advanceCertificate = (domain: CustomDomain) =>
  Effect.gen(function* () {
    const now = new Date(yield* Clock.currentTimeMillis)
    if (!isIssuanceDue(domain, now) || domain.issuance === null) return domain
    const issuer = yield* CertificateIssuer
    const delayAfter = yield* CertificateDelay
    const order = domain.issuance.order

    if (order === null) {
      const renewing = isRenewal(domain) ? renewCertificate(domain, now) : domain
      const findings = yield* diagnoseCertificate(renewing)
      // Shown in this very job, found or cleared: the owner need not wait for the delay to learn it.
      const current = checksFound(renewing, findings)
      if (findings.length > 0) return attemptBlocked(current, findings, now, delayAfter)
      const opened = yield* issuer.startOrder(current.hostname).pipe(Effect.result)
      if (opened._tag === "Failure") {
        yield* Effect.logWarning(
          `opening a certificate order for ${current.hostname} failed`,
          opened.failure.message
        )
        return attemptBlocked(current, [caUnreachable], now, delayAfter)
      }
      const started = orderStarted(current, opened.success, now)
      // A CA that issues at once (the local one) needs no second visit; a failed look waits for the poll.
      const first = yield* Effect.option(issuer.pollOrder(opened.success))
      return first._tag === "Some" && isFinished(first.value)
        ? yield* settle(started, first.value, now)
        : started
    }

    // The diagnosis costs DNS lookups: run only when its result will be shown.
    const causesIfLate = isDelayDue(domain, now, delayAfter)
      ? diagnoseCertificate(domain)
      : Effect.succeed<ReadonlyArray<Problem>>([])

    const state = yield* issuer.pollOrder(order).pipe(Effect.result)
    if (state._tag === "Failure") {
      yield* Effect.logWarning(
        `polling the certificate order of ${domain.hostname} failed`,
        state.failure.message
      )
      const causes = yield* causesIfLate
      return attemptBlocked(domain, causes.length > 0 ? causes : [caUnreachable], now, delayAfter)
    }
    return isFinished(state.success)
      ? yield* settle(domain, state.success, now)
      : orderWaiting(domain, yield* causesIfLate, now, delayAfter)
  })
