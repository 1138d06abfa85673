/**
 * Claims of an apex (contract section 4) through a real server: every operation with good and bad
 * input, the TXT record found (or not) by Verify, and the isolation of accounts: another account's
 * claim is never seen, never deleted nor verified by anyone else.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MemoryStore } from "@petstore/store-memory"
import { Effect } from "effect"
import { expectError, json, jsonPost, makeTxtDns, TestServer, TestServerLive } from "./support/TestServer.js"

interface ClaimBody {
  readonly apex: string
  readonly status: "pending" | "verified"
  readonly txt: { readonly name: string; readonly value: string }
  readonly verifiedAt: string | null
  readonly lastCheckedAt: string | null
}

type Caller = "alice" | "bob"

const dns = makeTxtDns()

const claimPath = (apex: string) => `/v1/claims/${encodeURIComponent(apex)}`

const send = (path: string, init: RequestInit, as: Caller = "alice") =>
  Effect.flatMap(TestServer, (server) =>
    server.request(path, { ...init, key: as === "bob" ? server.otherKey : server.key })
  )

const createClaim = (body: unknown, as?: Caller) => send("/v1/claims", jsonPost(body), as)
const listClaims = (as?: Caller) => send("/v1/claims", {}, as)
const getClaim = (apex: string, as?: Caller) => send(claimPath(apex), {}, as)
const deleteClaim = (apex: string, as?: Caller) => send(claimPath(apex), { method: "DELETE" }, as)
const verifyClaim = (apex: string, as?: Caller) => send(`${claimPath(apex)}/verify`, { method: "POST" }, as)

/** The answer's claim, after checking its status and that it shows exactly the public fields. */
const expectClaim = (response: Response, status: number) =>
  Effect.gen(function* () {
    const body = (yield* json(response)) as ClaimBody
    expect(response.status, JSON.stringify(body)).toBe(status)
    expect(Object.keys(body).sort()).toEqual(["apex", "lastCheckedAt", "status", "txt", "verifiedAt"])
    expect(body.txt).toEqual({ name: `_petstore-challenge.${body.apex}`, value: expect.any(String) })
    expect(body.txt.value).toMatch(/^petstore-verification=[0-9a-f]{32}$/)
    return body
  })

const apexesOf = (response: Response) =>
  Effect.gen(function* () {
    expect(response.status).toBe(200)
    const body = (yield* json(response)) as { readonly claims: ReadonlyArray<ClaimBody> }
    expect(Object.keys(body)).toEqual(["claims"])
    return body.claims.map((claim) => claim.apex)
  })

const expectNotFound = (response: Response, apex: string) =>
  Effect.gen(function* () {
    const body = yield* expectError(response, 404, "not_found")
    expect(body.message).toBe(`no claim of ${JSON.stringify(apex)}`)
  })

// The cases share one account's claims, more than the 5 pending at once the contract allows.
const roomy = { claimsPerAccount: 100, pendingClaimsPerAccount: 100 }

layer(TestServerLive(MemoryStore.layer, { dns: dns.layer, limits: roomy }), { excludeTestServices: true })(
  "claims",
  (it) => {
    describe("POST /v1/claims", () => {
      it.effect("creates a pending claim with its TXT record (201), then answers that claim (200)", () =>
        Effect.gen(function* () {
          const created = yield* expectClaim(yield* createClaim({ apex: "example.com" }), 201)
          expect(created).toMatchObject({ apex: "example.com", status: "pending", verifiedAt: null })
          // The same apex written otherwise is the same claim, unchanged.
          for (const apex of ["example.com", "Example.COM", " EXAMPLE.com. "]) {
            expect(yield* expectClaim(yield* createClaim({ apex }), 200)).toEqual(created)
          }
          expect(
            (yield* apexesOf(yield* listClaims())).filter((apex) => apex === "example.com")
          ).toHaveLength(1)
        })
      )

      it.effect("normalises an IDN apex to punycode and knows multi-label public suffixes", () =>
        Effect.gen(function* () {
          const idn = yield* expectClaim(yield* createClaim({ apex: "Bücher.de" }), 201)
          expect(idn).toMatchObject({
            apex: "xn--bcher-kva.de",
            txt: { name: "_petstore-challenge.xn--bcher-kva.de" }
          })
          expect(yield* expectClaim(yield* getClaim("bücher.de"), 200)).toEqual(idn)
          expect(yield* expectClaim(yield* getClaim("xn--bcher-kva.de"), 200)).toEqual(idn)
          const underTwoLabelSuffix = yield* expectClaim(yield* createClaim({ apex: "example.co.uk" }), 201)
          expect(underTwoLabelSuffix.apex).toBe("example.co.uk")
        })
      )

      it.effect("refuses what is not a registrable domain with a 400 naming the field", () =>
        Effect.gen(function* () {
          const refusals: ReadonlyArray<readonly [unknown, string | RegExp]> = [
            [
              { apex: "docs.example.org" },
              "apex: must be a registrable domain such as example.com, not a name under one"
            ],
            [{ apex: "www.example.co.uk" }, /^apex: must be a registrable domain/],
            [{ apex: "com" }, /^apex: /],
            [{ apex: "co.uk" }, /^apex: /],
            [{ apex: "192.0.2.1" }, /^apex: /],
            [{ apex: "" }, /^apex: /],
            [{ apex: "   " }, /^apex: /],
            [{ apex: "exa mple.com" }, /^apex: /],
            [{ apex: "under_score.com" }, /^apex: /],
            [{ apex: `${"a".repeat(64)}.com` }, /^apex: /],
            [{ apex: `${"a.".repeat(130)}com` }, /^apex: /],
            [{ apex: "sites.docs-platform.test" }, /^apex: /],
            [{ apex: 42 }, /^apex: /],
            [{ apex: null }, /^apex: /],
            [{ apex: ["example.net"] }, /^apex: /],
            [{}, "apex: is required"],
            [{ hostname: "example.net" }, "apex: is required"],
            ['"example.net"', "body: must be a JSON object with the documented fields"],
            [[], "body: must be a JSON object with the documented fields"],
            ["{", "body: must be valid JSON"]
          ]
          for (const [body, message] of refusals) {
            const refused = yield* expectError(yield* createClaim(body), 400, "invalid_request")
            if (typeof message === "string") expect(refused.message, JSON.stringify(body)).toBe(message)
            else expect(refused.message, JSON.stringify(body)).toMatch(message)
          }
          const listed = yield* apexesOf(yield* listClaims())
          for (const apex of [
            "docs.example.org",
            "www.example.co.uk",
            "example.net",
            "sites.docs-platform.test"
          ]) {
            expect(listed).not.toContain(apex)
          }
        })
      )

      it.effect("ignores unknown fields, as every body of the service does, and shows none back", () =>
        Effect.gen(function* () {
          const created = yield* expectClaim(
            yield* createClaim({ apex: "unknown-fields.com", status: "verified", account: "bob" }),
            201
          )
          expect(created).toMatchObject({ apex: "unknown-fields.com", status: "pending", verifiedAt: null })
          yield* expectNotFound(yield* getClaim("unknown-fields.com", "bob"), "unknown-fields.com")
        })
      )

      it.effect("checks the key first, then the body's size and media type", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const anonymous = yield* server.request("/v1/claims", { ...jsonPost({ apex: 7 }), key: null })
          yield* expectError(anonymous, 401, "unauthorized")
          expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="petstore"')
          const wrongKey = yield* server.request("/v1/claims", { ...jsonPost({}), key: `${server.key}x` })
          yield* expectError(wrongKey, 401, "unauthorized")
          yield* expectError(
            yield* createClaim({ apex: `${"x".repeat(70_000)}.com` }),
            413,
            "payload_too_large"
          )
          const plain = yield* send("/v1/claims", {
            method: "POST",
            headers: { "content-type": "text/plain" },
            body: '{"apex":"plain-text.com"}'
          })
          yield* expectError(plain, 415, "unsupported_media_type")
          expect(yield* apexesOf(yield* listClaims())).not.toContain("plain-text.com")
        })
      )

      it.effect("answers with a request id and the rate-limit headers, as every keyed operation does", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const response = yield* server.request("/v1/claims", {
            ...jsonPost({ apex: "request-id.com" }),
            headers: { "content-type": "application/json", "x-request-id": "claim-request-1" }
          })
          yield* expectClaim(response, 201)
          expect(response.headers.get("x-request-id")).toBe("claim-request-1")
          expect(response.headers.get("ratelimit-policy")).toContain("api-key")
          expect(response.headers.get("content-type")).toMatch(/^application\/json/)
        })
      )
    })

    describe("GET /v1/claims", () => {
      it.effect("lists the account's own claims, oldest first, in { claims }", () =>
        Effect.gen(function* () {
          yield* expectClaim(yield* createClaim({ apex: "list-first.com" }), 201)
          yield* expectClaim(yield* createClaim({ apex: "list-second.com" }), 201)
          const listed = yield* apexesOf(yield* listClaims())
          expect(listed).toEqual(expect.arrayContaining(["example.com", "list-first.com", "list-second.com"]))
          expect(listed.indexOf("list-first.com")).toBeLessThan(listed.indexOf("list-second.com"))
          expect(new Set(listed).size).toBe(listed.length)
          const full = (yield* json(yield* listClaims())) as { readonly claims: ReadonlyArray<ClaimBody> }
          for (const claim of full.claims) {
            expect(Object.keys(claim).sort()).toEqual([
              "apex",
              "lastCheckedAt",
              "status",
              "txt",
              "verifiedAt"
            ])
          }
        })
      )

      it.effect("needs a key", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          yield* expectError(yield* server.request("/v1/claims", { key: null }), 401, "unauthorized")
        })
      )
    })

    describe("GET and DELETE /v1/claims/{apex}", () => {
      it.effect("GET answers the claim by its apex written any way; anything else is a 404", () =>
        Effect.gen(function* () {
          const claim = yield* expectClaim(yield* createClaim({ apex: "get-me.com" }), 201)
          expect(yield* expectClaim(yield* getClaim("GET-ME.com"), 200)).toEqual(claim)
          expect(yield* expectClaim(yield* getClaim("get-me.com."), 200)).toEqual(claim)
          for (const apex of [
            "never-claimed.com",
            "docs.get-me.com",
            "com",
            "not a name",
            "%zz",
            "get_me.com"
          ]) {
            yield* expectNotFound(yield* getClaim(apex), apex)
          }
        })
      )

      it.effect("DELETE removes the claim: 204 without a body, then 404 everywhere", () =>
        Effect.gen(function* () {
          yield* expectClaim(yield* createClaim({ apex: "delete-me.com" }), 201)
          const deleted = yield* deleteClaim("Delete-Me.com")
          expect(deleted.status).toBe(204)
          expect(yield* Effect.promise(() => deleted.text())).toBe("")
          yield* expectNotFound(yield* getClaim("delete-me.com"), "delete-me.com")
          yield* expectNotFound(yield* deleteClaim("delete-me.com"), "delete-me.com")
          yield* expectNotFound(yield* verifyClaim("delete-me.com"), "delete-me.com")
          expect(yield* apexesOf(yield* listClaims())).not.toContain("delete-me.com")
          // Claimed again, it is a new claim.
          yield* expectClaim(yield* createClaim({ apex: "delete-me.com" }), 201)
        })
      )

      it.effect("need a key, checked before the claim is looked for", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          for (const init of [{}, { method: "DELETE" }]) {
            const response = yield* server.request(claimPath("example.com"), { ...init, key: null })
            yield* expectError(response, 401, "unauthorized")
          }
          yield* expectError(
            yield* server.request(`${claimPath("example.com")}/verify`, { method: "POST", key: null }),
            401,
            "unauthorized"
          )
          expect(yield* apexesOf(yield* listClaims())).toContain("example.com")
        })
      )

      it.effect("other methods on a claim's path are 405 with Allow", () =>
        Effect.gen(function* () {
          const put = yield* send(claimPath("example.com"), {
            ...jsonPost({ apex: "example.com" }),
            method: "PUT"
          })
          yield* expectError(put, 405, "method_not_allowed")
          expect(put.headers.get("allow")).toBe("DELETE, GET")
          const getVerify = yield* send(`${claimPath("example.com")}/verify`, {})
          yield* expectError(getVerify, 405, "method_not_allowed")
          expect(getVerify.headers.get("allow")).toBe("POST")
        })
      )
    })

    describe("POST /v1/claims/{apex}/verify", () => {
      it.effect("without the TXT record the claim stays pending", () =>
        Effect.gen(function* () {
          const claim = yield* expectClaim(yield* createClaim({ apex: "verify-me.com" }), 201)
          yield* dns.setTxt(claim.txt.name, {
            _tag: "Records",
            records: ["petstore-verification=someone-else"]
          })
          const checked = yield* expectClaim(yield* verifyClaim("verify-me.com"), 200)
          expect(checked).toEqual({ ...claim, lastCheckedAt: checked.lastCheckedAt })
          expect(claim.lastCheckedAt).toBeNull()
          expect(new Date(checked.lastCheckedAt ?? "").toISOString()).toBe(checked.lastCheckedAt)
        })
      )

      it.effect(
        "finds the record among others: verified; a lookup without answer keeps it; gone, it lapses",
        () =>
          Effect.gen(function* () {
            const claim = yield* expectClaim(yield* getClaim("verify-me.com"), 200)
            yield* dns.setTxt(claim.txt.name, { _tag: "Records", records: ["v=spf1 -all", claim.txt.value] })
            const verified = yield* expectClaim(yield* verifyClaim("Verify-Me.com"), 200)
            expect(verified).toMatchObject({ apex: "verify-me.com", status: "verified", txt: claim.txt })
            expect(new Date(verified.verifiedAt ?? "").toISOString()).toBe(verified.verifiedAt)
            expect(yield* expectClaim(yield* getClaim("verify-me.com"), 200)).toEqual(verified)

            yield* dns.setTxt(claim.txt.name, { _tag: "Failure", reason: "timeout", detail: "no answer" })
            const unanswered = yield* expectClaim(yield* verifyClaim("verify-me.com"), 200)
            expect(unanswered).toEqual({ ...verified, lastCheckedAt: unanswered.lastCheckedAt })

            yield* dns.setTxt(claim.txt.name, { _tag: "NoRecords", reason: "nxdomain" })
            const lapsed = yield* expectClaim(yield* verifyClaim("verify-me.com"), 200)
            expect(lapsed).toEqual({
              ...claim,
              status: "pending",
              verifiedAt: null,
              lastCheckedAt: lapsed.lastCheckedAt
            })
            expect(lapsed.lastCheckedAt).not.toBeNull()
          })
      )

      it.effect("an apex without a claim is a 404", () =>
        Effect.gen(function* () {
          for (const apex of ["nobody-claimed.com", "docs.verify-me.com", "..."]) {
            yield* expectNotFound(yield* verifyClaim(apex), apex)
          }
        })
      )
    })

    describe("accounts are isolated", () => {
      it.effect(
        "another account's claim is a 404, absent from the list, and claiming it makes one's own",
        () =>
          Effect.gen(function* () {
            const alices = yield* expectClaim(yield* createClaim({ apex: "tenant.com" }), 201)
            yield* expectNotFound(yield* getClaim("tenant.com", "bob"), "tenant.com")
            yield* expectNotFound(yield* verifyClaim("tenant.com", "bob"), "tenant.com")
            yield* expectNotFound(yield* deleteClaim("tenant.com", "bob"), "tenant.com")
            expect(yield* apexesOf(yield* listClaims("bob"))).not.toContain("tenant.com")
            // Bob's attempts changed nothing of Alice's.
            expect(yield* expectClaim(yield* getClaim("tenant.com"), 200)).toEqual(alices)

            const bobs = yield* expectClaim(yield* createClaim({ apex: "tenant.com" }, "bob"), 201)
            expect(bobs).toMatchObject({ apex: "tenant.com", status: "pending", verifiedAt: null })
            expect(bobs.txt.value).not.toBe(alices.txt.value)
            expect(yield* apexesOf(yield* listClaims("bob"))).toEqual(["tenant.com"])

            // Alice's record proves Alice's claim only.
            yield* dns.setTxt(alices.txt.name, { _tag: "Records", records: [alices.txt.value] })
            const bobsChecked = yield* expectClaim(yield* verifyClaim("tenant.com", "bob"), 200)
            expect(bobsChecked).toEqual({ ...bobs, lastCheckedAt: bobsChecked.lastCheckedAt })
            expect((yield* expectClaim(yield* verifyClaim("tenant.com"), 200)).status).toBe("verified")
            expect(yield* expectClaim(yield* getClaim("tenant.com", "bob"), 200)).toEqual(bobsChecked)

            // Bob deleting his claim leaves Alice's.
            expect((yield* deleteClaim("tenant.com", "bob")).status).toBe(204)
            expect((yield* expectClaim(yield* getClaim("tenant.com"), 200)).status).toBe("verified")
            expect(yield* apexesOf(yield* listClaims("bob"))).toEqual([])
          })
      )
    })
  }
)
