/**
 * The worker's step on a verified domain's certificate (`advanceCertificate`), over in-memory ports:
 * it runs the checks a CA would before ordering (so no order the CA must refuse is placed), opens an
 * order, polls it, and keeps the issued certificate; a domain whose CAA records block the CA gets no
 * order, is told why at once, and is `delayed` after 30 minutes. A test clock moves time on.
 */
import {
  advanceCertificate,
  CertificateIssuer,
  CertificateStore,
  needsRenewal,
  renewalDueAt,
  type StoredCertificate
} from "@petstore/certificates"
import {
  applyVerdict,
  CaaRecord,
  type CustomDomain,
  type DnsAnswer,
  DnsResolver,
  Hostname,
  newCustomDomain,
  OrderRef,
  OwnershipToken,
  PlatformSettings
} from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { ProjectId } from "@petstore/projects"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"

const t0 = Date.parse("2027-03-01T12:00:00.000Z")
const target = "cname.example-sites.net"
const none: DnsAnswer<never> = { _tag: "NoRecords", reason: "nxdomain" }

// DNS: both names point at the platform; example.org's CAA records allow another CA only.
const Dns = Layer.succeed(
  DnsResolver,
  DnsResolver.of({
    cname: () => Effect.succeed({ _tag: "Records", records: [target] }),
    addresses: () => Effect.succeed(none),
    txt: () => Effect.succeed(none),
    caa: (name) =>
      Effect.succeed(
        name === "example.org"
          ? {
              _tag: "Records",
              records: [new CaaRecord({ critical: false, tag: "issue", value: "digicert.com" })]
            }
          : none
      )
  })
)

// A CA whose orders are pending at first and valid from the next poll on.
const orders: Array<string> = []
const polled = new Map<string, number>()
const Ca = Layer.succeed(
  CertificateIssuer,
  CertificateIssuer.of({
    startOrder: (hostname) =>
      Effect.sync(() => {
        orders.push(hostname)
        return OrderRef.make(`order-${orders.length}`)
      }),
    pollOrder: (order) =>
      Effect.sync(() => {
        const polls = (polled.get(order) ?? 0) + 1
        polled.set(order, polls)
        return polls === 1
          ? { _tag: "Pending" as const }
          : {
              _tag: "Valid" as const,
              certificatePem: "-----BEGIN CERTIFICATE-----…",
              chainPem: "-----BEGIN CERTIFICATE-----…",
              privateKeyPem: Redacted.make("-----BEGIN PRIVATE KEY-----…"),
              notBefore: new Date(t0),
              notAfter: new Date(t0 + Duration.toMillis(Duration.days(90)))
            }
      })
  })
)

// A store keeps a certificate only for the domain still verified at the version its order was
// settled from (here every domain stays so); it keeps the private key encrypted at rest.
const kept = new Map<string, StoredCertificate>()
const Store = Layer.succeed(
  CertificateStore,
  CertificateStore.of({
    save: (issuedFor, certificate) =>
      Effect.sync(() => kept.set(issuedFor.hostname, certificate) !== undefined),
    find: (hostname) => Effect.sync(() => Option.fromNullishOr(kept.get(hostname))),
    remove: (hostname) => Effect.sync(() => void kept.delete(hostname))
  })
)

const Platform = PlatformSettings.layer({
  platformDomain: "docs.example-platform.com",
  cnameTarget: target,
  caIdentifier: "letsencrypt.org"
})

/** A domain of the project, verified at `t0`: its certificate is asked for at once. */
const verifiedDomain = (hostname: string): CustomDomain =>
  applyVerdict(
    newCustomDomain(
      { account: AccountName.make("acme"), projectId: ProjectId.make("handbook") },
      Hostname.make(hostname),
      { token: OwnershipToken.make("5f0c2a9e7b3d41c8a6e2f0b9d7c5a3e1"), required: false },
      target,
      new Date(t0)
    ),
    { _tag: "Verified", problems: [] },
    new Date(t0)
  )

const show = (domain: CustomDomain) =>
  console.log(
    domain.hostname,
    domain.certificate.status,
    domain.certificate.problems.map((problem) => problem.code),
    domain.issuance?.order ?? null
  )

const program = Effect.gen(function* () {
  yield* TestClock.setTime(t0)
  const docs = verifiedDomain("docs.example.com")
  show(docs)
  const ordered = yield* advanceCertificate(docs) // the checks pass: an order is opened, pending
  show(ordered)
  yield* TestClock.adjust("2 seconds") // the first poll of an open order comes 2 s later
  const issued = yield* advanceCertificate(ordered)
  show(issued)
  const expiresAt = issued.certificate.expiresAt ?? new Date(0)
  console.log(expiresAt.toISOString(), renewalDueAt(expiresAt).toISOString(), kept.has("docs.example.com"))
  console.log(
    needsRenewal(issued.certificate, new Date(t0)),
    needsRenewal(issued.certificate, renewalDueAt(expiresAt))
  )

  // CAA blocks the CA: no order is placed, and the owner sees why at once.
  const blocked = yield* advanceCertificate(verifiedDomain("handbook.example.org"))
  show(blocked)
  console.log(blocked.certificate.problems[0]?.message)
  yield* TestClock.adjust("30 minutes")
  show(yield* advanceCertificate(blocked))
  console.log(orders)
})

Effect.runPromise(program.pipe(Effect.provide(Layer.mergeAll(Dns, Ca, Store, Platform, TestClock.layer()))))

// Output:
// docs.example.com pending [] null
// docs.example.com pending [] order-1
// docs.example.com issued [] null
// 2027-05-30T12:00:00.000Z 2027-04-30T12:00:00.000Z true
// false true
// handbook.example.org pending [ 'caa_blocks_issuer' ] null
// The CAA records at example.org (0 issue "digicert.com") block letsencrypt.org from issuing a certificate for handbook.example.org: issue allows only digicert.com, not letsencrypt.org. To allow it, add the CAA record example.org CAA 0 issue "letsencrypt.org".
// handbook.example.org delayed [ 'caa_blocks_issuer' ] null
// [ 'docs.example.com' ]
