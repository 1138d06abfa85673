/**
 * Adding a domain under the ownership rules (contract section 4) through a real server: a hostname
 * another account has is no longer refused but added with its TXT record required, `domain_in_use`
 * is left for two projects of one account, and a name under another account's proved claim is
 * refused with `domain_claimed` (and the names that account had there are lost).
 */
import { describe, expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Effect } from "effect"
import { expectError, json, jsonPost, makeTxtDns, TestServer, TestServerLive } from "./support/TestServer.js"

interface DomainBody {
  readonly hostname: string
  readonly status: "pending" | "verified" | "failed"
  readonly ownership: {
    readonly type: string
    readonly name: string
    readonly value: string
    readonly required: boolean
  }
  readonly verification: { readonly problems: ReadonlyArray<{ readonly code: string }> }
}

type Caller = "alice" | "bob"

const dns = makeTxtDns()

const send = (path: string, init: RequestInit, as: Caller = "alice") =>
  Effect.flatMap(TestServer, (server) =>
    server.request(path, { ...init, key: as === "bob" ? server.otherKey : server.key })
  )

const domainsPath = (project: string) => `/v1/projects/${project}/domains`
const addDomain = (project: string, hostname: string, as?: Caller) =>
  send(domainsPath(project), jsonPost({ hostname }), as)
const getDomain = (project: string, hostname: string, as?: Caller) =>
  send(`${domainsPath(project)}/${encodeURIComponent(hostname)}`, {}, as)

const expectDomain = (response: Response, status: number) =>
  Effect.gen(function* () {
    const body = (yield* json(response)) as DomainBody
    expect(response.status, JSON.stringify(body)).toBe(status)
    expect(body.ownership).toEqual({
      type: "TXT",
      name: `_petstore-challenge.${body.hostname}`,
      value: expect.stringMatching(/^petstore-verification=[0-9a-f]{32}$/),
      required: expect.any(Boolean)
    })
    return body
  })

/** A paid, deployed project. */
const readyProject = (id: string, as: Caller) =>
  Effect.gen(function* () {
    expect((yield* send("/v1/projects", jsonPost({ id, plan: "pro" }), as)).status).toBe(201)
    expect((yield* send(`/v1/projects/${id}/deploys`, jsonPost({ status: "succeeded" }), as)).status).toBe(
      201
    )
  })

layer(TestServerLive(MemoryStore.layer, { dns: dns.layer }), { excludeTestServices: true })(
  "adding a domain under the ownership rules",
  (it) => {
    describe("a hostname another account has", () => {
      it.effect("is added (201) with its TXT record required, and the first holder's becomes required", () =>
        Effect.gen(function* () {
          // The projects every test here uses: two of alice's and one of bob's.
          yield* readyProject("alice-docs", "alice")
          yield* readyProject("alice-blog", "alice")
          yield* readyProject("bob-docs", "bob")
          const alices = yield* expectDomain(yield* addDomain("alice-docs", "docs.shared.com"), 201)
          expect(alices.ownership.required).toBe(false)
          const bobs = yield* expectDomain(yield* addDomain("bob-docs", "Docs.Shared.com", "bob"), 201)
          expect(bobs).toMatchObject({ hostname: "docs.shared.com", status: "pending" })
          expect(bobs.ownership.required).toBe(true)
          // One token per account and name.
          expect(bobs.ownership.value).not.toBe(alices.ownership.value)
          const alicesNow = yield* expectDomain(yield* getDomain("alice-docs", "docs.shared.com"), 200)
          expect(alicesNow.ownership).toEqual({ ...alices.ownership, required: true })
          // Each account sees its own domain only.
          const bobsNow = yield* expectDomain(yield* getDomain("bob-docs", "docs.shared.com", "bob"), 200)
          expect(bobsNow.ownership.value).toBe(bobs.ownership.value)
          yield* expectError(yield* getDomain("alice-docs", "docs.shared.com", "bob"), 404, "not_found")
        })
      )

      it.effect("is still refused with domain_in_use when another project of the same account has it", () =>
        Effect.gen(function* () {
          const refused = yield* expectError(
            yield* addDomain("alice-blog", "docs.shared.com"),
            409,
            "domain_in_use"
          )
          expect(refused.message).toBe("docs.shared.com is already a domain of a project of this account")
        })
      )
    })

    describe("a name under another account's claim", () => {
      it.effect("needs its TXT record while the claim is pending", () =>
        Effect.gen(function* () {
          expect((yield* send("/v1/claims", jsonPost({ apex: "claimed.com" }))).status).toBe(201)
          const bobs = yield* expectDomain(yield* addDomain("bob-docs", "www.claimed.com", "bob"), 201)
          expect(bobs.ownership.required).toBe(true)
        })
      )

      it.effect("is refused with domain_claimed once the claim is proved, and bob's name there is lost", () =>
        Effect.gen(function* () {
          const claim = (yield* json(yield* send("/v1/claims/claimed.com", {}))) as {
            readonly txt: { readonly name: string; readonly value: string }
          }
          yield* dns.setTxt(claim.txt.name, { _tag: "Records", records: [claim.txt.value] })
          const verified = yield* send("/v1/claims/claimed.com/verify", { method: "POST" })
          expect(((yield* json(verified)) as { readonly status: string }).status).toBe("verified")

          for (const hostname of ["docs.claimed.com", "claimed.com", "A.B.Claimed.com"]) {
            const refused = yield* expectError(
              yield* addDomain("bob-docs", hostname, "bob"),
              409,
              "domain_claimed"
            )
            expect(refused.message).toBe(
              `${hostname.toLowerCase()} lies under a domain another account has claimed and proved it owns`
            )
          }
          // Bob's domain there, added while the claim was pending, has lost the name.
          const lost = yield* expectDomain(yield* getDomain("bob-docs", "www.claimed.com", "bob"), 200)
          expect(lost.status).toBe("failed")
          expect(lost.verification.problems.map((problem) => problem.code)).toEqual(["ownership_lost"])
          // A look-alike name is not under the claim.
          expect((yield* addDomain("bob-docs", "notclaimed.com", "bob")).status).toBe(201)
          // The claiming account needs no other proof for names under its claim.
          const alices = yield* expectDomain(yield* addDomain("alice-docs", "docs.claimed.com"), 201)
          expect(alices.ownership.required).toBe(false)
        })
      )

      it.effect("is open to other accounts again once the claim is deleted", () =>
        Effect.gen(function* () {
          expect((yield* send("/v1/claims/claimed.com", { method: "DELETE" })).status).toBe(204)
          const bobs = yield* expectDomain(yield* addDomain("bob-docs", "blog.claimed.com", "bob"), 201)
          expect(bobs.ownership.required).toBe(false)
        })
      )
    })
  }
)
