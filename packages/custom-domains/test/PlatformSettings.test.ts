import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PlatformSettings, reservedNamesOf } from "../src/index.js"

describe("PlatformSettings.layer", () => {
  it.effect("keeps the names as DNS compares them: trimmed, lower case, no trailing dot", () =>
    Effect.gen(function* () {
      expect(yield* PlatformSettings).toStrictEqual({
        platformDomain: "docs.example.net",
        cnameTarget: "cname.docs.example.net",
        caIdentifier: "letsencrypt.org"
      })
    }).pipe(
      Effect.provide(
        PlatformSettings.layer({
          platformDomain: " Docs.Example.NET. ",
          cnameTarget: "CNAME.docs.example.net.",
          caIdentifier: "LetsEncrypt.org"
        })
      )
    )
  )
})

describe("reservedNamesOf", () => {
  it("reserves the platform domain and the CNAME target's registrable domain", () => {
    const settings = { platformDomain: "docs.petstore.dev", caIdentifier: "letsencrypt.org" }
    expect(reservedNamesOf({ ...settings, cnameTarget: "cname.petstore-sites.net" })).toEqual([
      "docs.petstore.dev",
      "petstore-sites.net"
    ])
    expect(reservedNamesOf({ ...settings, cnameTarget: "cname.sites.example.co.uk" })).toEqual([
      "docs.petstore.dev",
      "example.co.uk"
    ])
    expect(
      reservedNamesOf({
        platformDomain: "example.com",
        cnameTarget: "cname.example.com",
        caIdentifier: "x"
      })
    ).toEqual(["example.com"])
  })

  it("reserves a CNAME target without a registrable domain as it is", () => {
    expect(
      reservedNamesOf({ platformDomain: "docs.example.com", cnameTarget: "co.uk", caIdentifier: "x" })
    ).toEqual(["docs.example.com", "co.uk"])
  })
})
