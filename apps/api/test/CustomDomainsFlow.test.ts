/**
 * The whole custom-domain flow (contract section 3) end to end: a real listening server over the
 * PostgreSQL store of a fresh database, the real DNS adapter asking pebble-challtestsrv, and the real
 * worker loop in the same layer, all on a clock the tests can move forward (real sleeps, real time
 * plus an offset), so the 30-second recheck and the 48-hour window take no waiting.
 */
import { describe, expect, layer } from "@effect/vitest"
import { LocalCertificateAuthority } from "@petstore/acme"
import { AddDomainRequest, ChangePlanRequest, makePetstoreClient } from "@petstore/api"
import { Challtestsrv, challtestsrvLayer } from "@petstore/dns/testing"
import { TestServer, testPlatform } from "@petstore/http/testing"
import { Duration, Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { ClockControl } from "./support/AdjustableClock.js"
import {
  addDomain,
  type ConfigBody,
  changePlan,
  createProject,
  type DomainBody,
  deploy,
  domainOnce,
  domainPath,
  domainsPath,
  edge,
  expectError,
  expectOk,
  flowLayer,
  getConfig,
  getDomain,
  type ProjectBody,
  problemCodes,
  putConfig,
  readyProject,
  reverify,
  send,
  targetAddresses,
  verify
} from "./support/DomainFlow.js"

// ---------------------------------------------------------------------------------------------

// One pebble-challtestsrv for the whole file, started once: `challtestsrvLayer`'s readiness probe
// (packages/dns/test/support/TestDnsServers.ts, `awaitReady`) stops at the first refused connection
// to the management API instead of retrying, so a second start in one process usually fails.
layer(challtestsrvLayer, { timeout: 30_000, excludeTestServices: true })(
  "custom domains end to end",
  (it) => {
    it.layer(flowLayer({ issuer: LocalCertificateAuthority.issuerLayer() }), { timeout: 60_000 })(
      "the flow",
      (it) => {
        describe("projects", () => {
          it.effect(
            "creates a project with its default hostname; refuses duplicates, bad fields and no key",
            () =>
              Effect.gen(function* () {
                const created = expectOk<ProjectBody>(yield* createProject("alpha", "free"), 201)
                expect(created).toEqual({
                  id: "alpha",
                  plan: "free",
                  defaultHostname: "alpha.docs-platform.test",
                  lastDeploy: null
                })
                expectError(yield* createProject("alpha", "pro"), 409, "conflict", "id")
                expectError(yield* createProject("alpha", "pro", "bob"), 409, "conflict", "id")
                expectError(yield* createProject("Not A Slug", "pro"), 400, "invalid_request", /^id: /)
                expectError(yield* createProject("-leading", "pro"), 400, "invalid_request", /^id: /)
                expectError(yield* createProject("beta", "gold"), 400, "invalid_request", /^plan: /)
                expectError(
                  yield* send("POST", "/v1/projects", { body: { id: "beta" } }),
                  400,
                  "invalid_request",
                  /^plan: /
                )
                expectError(yield* createProject("beta", "pro", "nobody"), 401, "unauthorized")
                expectError(yield* send("GET", domainsPath("alpha"), { as: "nobody" }), 401, "unauthorized")
                expectError(
                  yield* send("GET", "/v1/edge/resolve?host=alpha.docs-platform.test", { as: "nobody" }),
                  401,
                  "unauthorized"
                )
              })
          )
        })

        it.effect("a body that is not a JSON object is refused with a message about this body", () =>
          Effect.gen(function* () {
            for (const [method, path] of [
              ["POST", "/v1/projects"],
              ["PUT", "/v1/projects/alpha/domain-config"],
              ["POST", domainsPath("alpha")]
            ] as const) {
              const refused = expectError(
                yield* send(method, path, { body: "[]" }),
                400,
                "invalid_request",
                /^body: /
              )
              expect(refused.message).not.toContain("categoryId")
            }
          })
        )

        describe("adding domains", () => {
          it.effect("needs a paid plan, then a succeeded deploy; answers the DNS record to create", () =>
            Effect.gen(function* () {
              expectError(yield* addDomain("alpha", "docs.example.com"), 403, "plan_required")
              expect(expectOk<ProjectBody>(yield* changePlan("alpha", "pro")).plan).toBe("pro")
              expectError(yield* addDomain("alpha", "docs.example.com"), 409, "deploy_required")
              const failed = expectOk<ProjectBody>(yield* deploy("alpha", "failed"), 201)
              expect(failed.lastDeploy?.status).toBe("failed")
              expectError(yield* addDomain("alpha", "docs.example.com"), 409, "deploy_required")
              const deployed = expectOk<ProjectBody>(yield* deploy("alpha", "succeeded"), 201)
              expect(deployed.lastDeploy?.status).toBe("succeeded")

              const domain = expectOk<DomainBody>(yield* addDomain("alpha", "docs.example.com"), 201)
              expect(domain).toMatchObject({
                hostname: "docs.example.com",
                projectId: "alpha",
                kind: "subdomain",
                status: "pending",
                dnsRecord: {
                  type: "CNAME",
                  name: "docs.example.com",
                  value: "sites.docs-platform.test",
                  ttl: 3600
                },
                certificate: { status: "none" }
              })
              const { deadline } = domain.verification
              expect(Date.parse(deadline) - Date.parse(domain.createdAt)).toBe(48 * 3600 * 1000)
            })
          )

          it.effect(
            "a hostname belongs to one project of an account; another account may add it, needing its TXT record",
            () =>
              Effect.gen(function* () {
                yield* readyProject("beta")
                yield* readyProject("gamma")
                expectOk(yield* createProject("bob-docs", "pro", "bob"), 201)
                expectOk(yield* deploy("bob-docs", "succeeded", "bob"), 201)
                expectError(yield* addDomain("alpha", "docs.example.com"), 409, "domain_in_use")
                expectError(yield* addDomain("alpha", "DOCS.example.com."), 409, "domain_in_use")
                expectError(yield* addDomain("beta", "docs.example.com"), 409, "domain_in_use")
                // Two projects of one account adding one new hostname at the same moment: one gets it.
                const sameAccount = yield* Effect.all(
                  [addDomain("beta", "race.example.com"), addDomain("gamma", "race.example.com")],
                  { concurrency: "unbounded" }
                )
                expect(sameAccount.map((answer) => answer.status).sort()).toEqual([201, 409])
                for (const answer of sameAccount.filter((answer) => answer.status === 409)) {
                  expectError(answer, 409, "domain_in_use")
                }
                // Another account at the same moment: both get it, and neither verifies without its record.
                const race = yield* Effect.all(
                  [addDomain("beta", "both.example.com"), addDomain("bob-docs", "both.example.com", "bob")],
                  { concurrency: "unbounded" }
                )
                const [alices, bobs] = race.map((answer) => expectOk<DomainBody>(answer, 201))
                expect(alices?.ownership.value).not.toBe(bobs?.ownership.value)
                for (const [project, as] of [
                  ["beta", "alice"],
                  ["bob-docs", "bob"]
                ] as const) {
                  const checked = expectOk<DomainBody>(yield* verify(project, "both.example.com", as))
                  expect(checked.ownership.required).toBe(true)
                  expect(problemCodes(checked)).toEqual(["record_not_found", "ownership_required"])
                }
                // Within alice's account the name is still one project's.
                expectError(yield* addDomain("gamma", "both.example.com"), 409, "domain_in_use")
              })
          )

          it.effect("refuses invalid hostnames, naming the field", () =>
            Effect.gen(function* () {
              const invalid = [
                "not a host",
                "localhost",
                "x.docs-platform.test",
                "docs-platform.test",
                `${"a".repeat(64)}.example.com`,
                `${Array.from({ length: 4 }, () => "a".repeat(63)).join(".")}.com`,
                "co.uk",
                "192.0.2.1",
                "",
                "under_score.example.com"
              ]
              for (const hostname of invalid) {
                expectError(yield* addDomain("alpha", hostname), 400, "invalid_request", /^hostname: /)
              }
              expectError(
                yield* send("POST", domainsPath("alpha"), { body: {} }),
                400,
                "invalid_request",
                /^hostname: /
              )
            })
          )

          it.effect("normalises IDN, upper case and a trailing dot", () =>
            Effect.gen(function* () {
              const idn = expectOk<DomainBody>(yield* addDomain("alpha", "Bücher.de"), 201)
              expect(idn).toMatchObject({
                hostname: "xn--bcher-kva.de",
                kind: "apex",
                dnsRecord: { type: "ALIAS" }
              })
              expect(expectOk<DomainBody>(yield* getDomain("alpha", "bücher.de")).hostname).toBe(
                "xn--bcher-kva.de"
              )
              const upper = expectOk<DomainBody>(yield* addDomain("alpha", "API.Example.COM."), 201)
              expect(upper).toMatchObject({ hostname: "api.example.com", kind: "subdomain" })
              expect(upper.dnsRecord.name).toBe("api.example.com")
              expect(expectOk<DomainBody>(yield* getDomain("alpha", "API.EXAMPLE.COM.")).hostname).toBe(
                "api.example.com"
              )
              expectError(yield* getDomain("alpha", "unknown.example.com"), 404, "not_found")
              expectError(yield* getDomain("beta", "api.example.com"), 404, "not_found")
            })
          )
        })

        describe("verification", () => {
          it.effect("the worker verifies a domain once its CNAME exists, without a click", () =>
            Effect.gen(function* () {
              const dns = yield* Challtestsrv
              const clock = yield* ClockControl
              const before = expectOk<DomainBody>(yield* verify("alpha", "docs.example.com"))
              expect(before.status).toBe("pending")
              expect(problemCodes(before)).toEqual(["record_not_found"])
              expect(before.verification.problems[0]?.message).toContain("sites.docs-platform.test")
              expect(before.verification.lastCheckedAt).not.toBeNull()
              const next = Date.parse(before.verification.nextCheckAt ?? "")
              const checked = Date.parse(before.verification.lastCheckedAt ?? "")
              expect(next - checked).toBeGreaterThanOrEqual(30_000)
              expect(next - checked).toBeLessThanOrEqual(31_000)

              yield* dns.setCname("docs.example.com", "Sites.Docs-Platform.Test.")
              // No check is due for 30 seconds: the domain is still pending for now.
              yield* Effect.sleep("300 millis")
              expect(expectOk<DomainBody>(yield* getDomain("alpha", "docs.example.com")).status).toBe(
                "pending"
              )

              yield* clock.advance("31 seconds")
              const verified = yield* domainOnce(
                "alpha",
                "docs.example.com",
                (domain) => domain.status === "verified"
              )
              expect(verified.verification.problems).toEqual([])
              expect(verified.verification.nextCheckAt).toBeNull()
              expect(Date.parse(verified.verification.lastCheckedAt ?? "")).toBeGreaterThanOrEqual(next)
              // The order is the next job, due at once; the flow's CA (the local one) issues in it.
              const issued = yield* domainOnce(
                "alpha",
                "docs.example.com",
                (domain) => domain.certificate.status === "issued"
              )
              expect(issued.certificate.problems).toEqual([])
            })
          )

          it.effect("Verify reports what DNS has, next to what is required", () =>
            Effect.gen(function* () {
              const dns = yield* Challtestsrv
              // A record blocking the CNAME.
              yield* dns.addA("blog.example.com", ["203.0.113.5"])
              expectOk(yield* addDomain("alpha", "blog.example.com"), 201)
              const blocked = expectOk<DomainBody>(yield* verify("alpha", "blog.example.com"))
              expect(blocked.status).toBe("pending")
              expect(blocked.verification.problems).toEqual([
                expect.objectContaining({ code: "conflicting_record", found: ["A 203.0.113.5"] })
              ])
              expect(blocked.verification.problems[0]?.message).toContain("203.0.113.5")

              // An AAAA record blocks it too.
              yield* dns.addAaaa("ipv6.example.com", ["2001:db8::5"])
              expectOk(yield* addDomain("alpha", "ipv6.example.com"), 201)
              const blocked6 = expectOk<DomainBody>(yield* verify("alpha", "ipv6.example.com"))
              expect(blocked6.verification.problems).toEqual([
                expect.objectContaining({ code: "conflicting_record", found: ["AAAA 2001:db8::5"] })
              ])

              // A CNAME to somewhere else.
              yield* dns.setCname("wiki.example.com", "elsewhere.example.net")
              expectOk(yield* addDomain("alpha", "wiki.example.com"), 201)
              const mismatch = expectOk<DomainBody>(yield* verify("alpha", "wiki.example.com"))
              expect(mismatch.status).toBe("pending")
              expect(mismatch.verification.problems).toEqual([
                expect.objectContaining({ code: "cname_mismatch", found: ["CNAME elsewhere.example.net"] })
              ])
              expect(mismatch.verification.problems[0]?.message).toContain("elsewhere.example.net")

              // A subdomain with the right CNAME: verified by the click.
              yield* dns.setCname("shop.example.org", "sites.docs-platform.test")
              expectOk(yield* addDomain("alpha", "shop.example.org"), 201)
              const shop = expectOk<DomainBody>(yield* verify("alpha", "shop.example.org"))
              expect(shop).toMatchObject({ status: "verified", certificate: { status: "pending" } })

              // Apex: ALIAS instruction, verified when its addresses are the target's.
              yield* dns.addA(testPlatform.cnameTarget, targetAddresses)
              yield* dns.addA("example.net", [...targetAddresses].reverse())
              const apex = expectOk<DomainBody>(yield* addDomain("alpha", "example.net"), 201)
              expect(apex).toMatchObject({
                kind: "apex",
                dnsRecord: {
                  type: "ALIAS",
                  name: "example.net",
                  value: "sites.docs-platform.test",
                  ttl: 3600
                }
              })
              const apexVerified = expectOk<DomainBody>(yield* verify("alpha", "example.net"))
              expect(apexVerified).toMatchObject({ status: "verified", verification: { problems: [] } })

              // Apex with a CNAME.
              yield* dns.setCname("example.co.uk", "sites.docs-platform.test")
              const coUk = expectOk<DomainBody>(yield* addDomain("alpha", "example.co.uk"), 201)
              expect(coUk.kind).toBe("apex")
              const alias = expectOk<DomainBody>(yield* verify("alpha", "example.co.uk"))
              expect(alias.status).toBe("pending")
              expect(alias.verification.problems).toEqual([
                expect.objectContaining({
                  code: "apex_requires_alias",
                  found: ["CNAME sites.docs-platform.test"]
                })
              ])

              // SERVFAIL: transient, stays pending.
              yield* dns.setServfail("status.example.com")
              expectOk(yield* addDomain("alpha", "status.example.com"), 201)
              const servfail = expectOk<DomainBody>(yield* verify("alpha", "status.example.com"))
              expect(servfail.status).toBe("pending")
              expect(problemCodes(servfail)).toEqual(["dns_error"])
              expect(servfail.verification.nextCheckAt).not.toBeNull()
            })
          )

          it.effect(
            "Re-verify is refused for a verified domain whose certificate is issued, and a pending one",
            () =>
              Effect.gen(function* () {
                expectError(yield* reverify("alpha", "docs.example.com"), 409, "conflict", /issued/)
                expectError(yield* reverify("alpha", "blog.example.com"), 409, "conflict")
                expectError(yield* reverify("alpha", "unknown.example.com"), 404, "not_found")
              })
          )
        })

        describe("domain config", () => {
          it.effect("defaults to the default hostname; accepts a verified primary and redirects to it", () =>
            Effect.gen(function* () {
              expect(expectOk<ConfigBody>(yield* getConfig("alpha"))).toEqual({
                primary: "alpha.docs-platform.test",
                redirects: []
              })
              const config = {
                primary: "docs.example.com",
                redirects: [
                  { from: "shop.example.org", to: "docs.example.com", status: 301 },
                  { from: "example.net", to: "docs.example.com", status: 301 }
                ]
              }
              expect(expectOk<ConfigBody>(yield* putConfig("alpha", config))).toEqual(config)
              expect(expectOk<ConfigBody>(yield* getConfig("alpha"))).toEqual(config)
              const listed = expectOk<{ domains: ReadonlyArray<DomainBody>; config: ConfigBody }>(
                yield* send("GET", domainsPath("alpha"))
              )
              expect(listed.config).toEqual(config)
              expect(listed.domains.map((domain) => domain.hostname)).toEqual([
                "docs.example.com",
                "xn--bcher-kva.de",
                "api.example.com",
                "blog.example.com",
                "ipv6.example.com",
                "wiki.example.com",
                "shop.example.org",
                "example.net",
                "example.co.uk",
                "status.example.com"
              ])
            })
          )

          it.effect("refuses configs that break the rules, naming the field", () =>
            Effect.gen(function* () {
              const redirect = (from: string, to = "docs.example.com", status = 301) => ({ from, to, status })
              const cases: ReadonlyArray<readonly [unknown, RegExp]> = [
                [{ primary: "blog.example.com", redirects: [] }, /^primary: /],
                [{ primary: "unknown.example.com", redirects: [] }, /^primary: /],
                [
                  { primary: "docs.example.com", redirects: [redirect("shop.example.org", "example.net")] },
                  /^redirects\.0\.to: /
                ],
                [
                  { primary: "docs.example.com", redirects: [redirect("docs.example.com")] },
                  /^redirects\.0\.from: /
                ],
                [
                  {
                    primary: "docs.example.com",
                    redirects: [redirect("shop.example.org", "docs.example.com", 302)]
                  },
                  /^redirects\.0\.status: /
                ],
                [
                  {
                    primary: "docs.example.com",
                    redirects: [redirect("shop.example.org"), redirect("shop.example.org")]
                  },
                  /^redirects\.1\.from: /
                ],
                [
                  { primary: "docs.example.com", redirects: [redirect("nowhere.example.com")] },
                  /^redirects\.0\.from: /
                ],
                [{ redirects: [] }, /^primary: /]
              ]
              for (const [config, field] of cases) {
                expectError(yield* putConfig("alpha", config), 400, "invalid_request", field)
              }
              expect(expectOk<ConfigBody>(yield* getConfig("alpha")).redirects).toHaveLength(2)
            })
          )
        })

        describe("the edge", () => {
          const serve = { action: "serve", projectId: "alpha" }
          const redirect = { action: "redirect", location: "https://docs.example.com/", status: 301 }

          it.effect("serves the default hostname and the primary, redirects the others, 404 otherwise", () =>
            Effect.gen(function* () {
              expect(expectOk(yield* edge("alpha.docs-platform.test"))).toEqual(serve)
              expect(expectOk(yield* edge("docs.example.com"))).toEqual(serve)
              expect(expectOk(yield* edge("DOCS.Example.com:443"))).toEqual(serve)
              expect(expectOk(yield* edge("shop.example.org"))).toEqual(redirect)
              expect(expectOk(yield* edge("SHOP.EXAMPLE.ORG:8443"))).toEqual(redirect)
              expect(expectOk(yield* edge("example.net"))).toEqual(redirect)
              expectError(yield* edge("blog.example.com"), 404, "not_found")
              expectError(yield* edge("nowhere.example.com"), 404, "not_found")
              expectError(yield* edge("nothing.docs-platform.test"), 404, "not_found")
            })
          )

          it.effect("a downgrade stops the custom domains at once; an upgrade serves them again", () =>
            Effect.gen(function* () {
              expect(expectOk<ProjectBody>(yield* changePlan("alpha", "free")).plan).toBe("free")
              expectError(yield* edge("docs.example.com"), 404, "not_found")
              expectError(yield* edge("shop.example.org"), 404, "not_found")
              expect(expectOk(yield* edge("alpha.docs-platform.test"))).toEqual(serve)
              // The domains are kept.
              expect(expectOk<DomainBody>(yield* getDomain("alpha", "docs.example.com")).status).toBe(
                "verified"
              )
              expectOk(yield* changePlan("alpha", "enterprise"))
              expect(expectOk(yield* edge("docs.example.com"))).toEqual(serve)
              expect(expectOk(yield* edge("shop.example.org"))).toEqual(redirect)
            })
          )

          it.effect("a removed domain is not served from the next request on, and leaves the config", () =>
            Effect.gen(function* () {
              const removed = yield* send("DELETE", domainPath("alpha", "shop.example.org"))
              expect(removed.status).toBe(204)
              expect(removed.body).toBeNull()
              expectError(yield* edge("shop.example.org"), 404, "not_found")
              expect(expectOk<ConfigBody>(yield* getConfig("alpha"))).toEqual({
                primary: "docs.example.com",
                redirects: [{ from: "example.net", to: "docs.example.com", status: 301 }]
              })
              expectError(yield* getDomain("alpha", "shop.example.org"), 404, "not_found")
              expectError(yield* send("DELETE", domainPath("alpha", "shop.example.org")), 404, "not_found")
              expect(expectOk(yield* edge("example.net"))).toEqual(redirect)
              // The hostname is free again, for any project; pending there, so not served.
              expect(expectOk<DomainBody>(yield* addDomain("beta", "shop.example.org"), 201).status).toBe(
                "pending"
              )
              expectError(yield* edge("shop.example.org"), 404, "not_found")
            })
          )
        })

        describe("tenant isolation", () => {
          it.effect("another account's project reads exactly like one that does not exist", () =>
            Effect.gen(function* () {
              const validConfig = { primary: "alpha.docs-platform.test", redirects: [] }
              const operations = (project: string) =>
                [
                  ["changePlan", () => changePlan(project, "free", "bob")],
                  ["recordDeploy", () => deploy(project, "failed", "bob")],
                  ["listDomains", () => send("GET", domainsPath(project), { as: "bob" })],
                  ["addDomain", () => addDomain(project, "bob.example.com", "bob")],
                  ["getDomain", () => getDomain(project, "docs.example.com", "bob")],
                  ["verifyDomain", () => verify(project, "docs.example.com", "bob")],
                  ["reverifyDomain", () => reverify(project, "docs.example.com", "bob")],
                  [
                    "removeDomain",
                    () => send("DELETE", domainPath(project, "docs.example.com"), { as: "bob" })
                  ],
                  ["getDomainConfig", () => getConfig(project, "bob")],
                  ["putDomainConfig", () => putConfig(project, validConfig, "bob")]
                ] as const
              const others = operations("alpha")
              const missing = operations("omega")
              for (const [index, [name, run]] of others.entries()) {
                const other = expectError(yield* run(), 404, "not_found")
                const absent = expectError(yield* (missing[index]?.[1] ?? run)(), 404, "not_found")
                expect({ name, ...other, message: other.message.replaceAll("alpha", "omega") }).toEqual({
                  name,
                  ...absent
                })
              }
              // Nothing bob tried changed alice's project.
              const listed = expectOk<{ domains: ReadonlyArray<DomainBody>; config: ConfigBody }>(
                yield* send("GET", domainsPath("alpha"))
              )
              expect(listed.domains.map((domain) => domain.hostname)).toContain("docs.example.com")
              expect(listed.domains.map((domain) => domain.hostname)).not.toContain("bob.example.com")
              expect(listed.config.primary).toBe("docs.example.com")
              expect(expectOk(yield* edge("docs.example.com"))).toEqual({
                action: "serve",
                projectId: "alpha"
              })

              // Bob's own project works, and shows none of alice's domains.
              const own = expectOk<{ domains: ReadonlyArray<DomainBody>; config: ConfigBody }>(
                yield* send("GET", domainsPath("bob-docs"), { as: "bob" })
              )
              // Bob's one domain is his own `both.example.com`, added beside alice's.
              expect(own.domains.map((domain) => [domain.projectId, domain.hostname])).toEqual([
                ["bob-docs", "both.example.com"]
              ])
              expect(own.config).toEqual({ primary: "bob-docs.docs-platform.test", redirects: [] })
              expect(
                expectOk<DomainBody>(yield* addDomain("bob-docs", "bob.example.com", "bob"), 201).projectId
              ).toBe("bob-docs")
              expectError(yield* getDomain("bob-docs", "docs.example.com", "bob"), 404, "not_found")
              expectError(yield* getDomain("alpha", "bob.example.com"), 404, "not_found")
            })
          )
        })

        describe("the typed client", () => {
          it.effect("reads domains and edge answers, and decodes the documented errors", () =>
            Effect.gen(function* () {
              const server = yield* TestServer
              const client = yield* makePetstoreClient({ baseUrl: server.baseUrl, apiKey: server.key })
              const docs = yield* client.projects.getDomain({
                params: { projectId: "alpha", hostname: "docs.example.com" }
              })
              expect(docs.status).toBe("verified")
              expect(docs.dnsRecord.type).toBe("CNAME")
              expect(docs.verification.lastCheckedAt).toBeInstanceOf(Date)
              const listed = yield* client.projects.listDomains({ params: { projectId: "alpha" } })
              expect(listed.config.primary).toBe("docs.example.com")
              expect(listed.domains.find((domain) => domain.hostname === "example.net")?.kind).toBe("apex")
              const answer = yield* client.edge.resolveHost({ query: { host: "example.net" } })
              expect(answer).toEqual({
                action: "redirect",
                location: "https://docs.example.com/",
                status: 301
              })

              const taken = yield* Effect.flip(
                client.projects.addDomain({
                  params: { projectId: "beta" },
                  payload: new AddDomainRequest({ hostname: "example.net" })
                })
              )
              expect(taken).toMatchObject({ code: "domain_in_use", status: 409 })
              yield* client.projects.changePlan({
                params: { projectId: "beta" },
                payload: new ChangePlanRequest({ plan: "free" })
              })
              const unpaid = yield* Effect.flip(
                client.projects.addDomain({
                  params: { projectId: "beta" },
                  payload: new AddDomainRequest({ hostname: "beta.example.com" })
                })
              )
              expect(unpaid).toMatchObject({ code: "plan_required", status: 403 })

              const bob = yield* makePetstoreClient({ baseUrl: server.baseUrl, apiKey: server.otherKey })
              const hidden = yield* Effect.flip(bob.projects.listDomains({ params: { projectId: "alpha" } }))
              expect(hidden).toMatchObject({ code: "not_found", status: 404 })
            }).pipe(Effect.provide(FetchHttpClient.layer))
          )
        })
      }
    )

    it.layer(flowLayer({ issuer: LocalCertificateAuthority.issuerLayer() }), { timeout: 60_000 })(
      "the 48-hour window, on a database of its own",
      (it) => {
        it.effect("a domain whose record never appears fails after 48 hours; Verify gives it 48 more", () =>
          Effect.gen(function* () {
            const clock = yield* ClockControl
            expectError(yield* getConfig("alpha"), 404, "not_found")
            yield* readyProject("late")
            const added = expectOk<DomainBody>(yield* addDomain("late", "slow.example.com"), 201)
            // The worker checks a new domain at once.
            const checked = yield* domainOnce(
              "late",
              "slow.example.com",
              (domain) => domain.verification.lastCheckedAt !== null
            )
            expect(checked.status).toBe("pending")
            expect(problemCodes(checked)).toEqual(["record_not_found"])
            expect(checked.verification.deadline).toBe(added.verification.deadline)

            yield* clock.advance(Duration.sum(Duration.hours(48), Duration.minutes(1)))
            const failed = yield* domainOnce(
              "late",
              "slow.example.com",
              (domain) => domain.status === "failed"
            )
            expect(problemCodes(failed)).toEqual(["verification_timed_out", "record_not_found"])
            expect(failed.verification.nextCheckAt).toBeNull()
            expect(failed.verification.problems[0]?.message).toContain(added.verification.deadline)
            expectError(yield* edge("slow.example.com"), 404, "not_found")

            const restarted = expectOk<DomainBody>(yield* verify("late", "slow.example.com"))
            const now = (yield* clock.now).getTime()
            expect(restarted.status).toBe("pending")
            expect(problemCodes(restarted)).toEqual(["record_not_found"])
            const deadline = Date.parse(restarted.verification.deadline)
            expect(Math.abs(deadline - (now + 48 * 3600 * 1000))).toBeLessThan(5_000)
            expect(restarted.verification.nextCheckAt).not.toBeNull()

            // The worker leaves it pending: the new window is open.
            yield* Effect.sleep("500 millis")
            expect(expectOk<DomainBody>(yield* getDomain("late", "slow.example.com")).status).toBe("pending")
          })
        )
      }
    )
  }
)
