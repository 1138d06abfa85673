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
  it("reserves the registrable domains of the platform domain and of the CNAME target", () => {
    const settings = { platformDomain: "docs.petstore.dev", caIdentifier: "letsencrypt.org" }
    expect(reservedNamesOf({ ...settings, cnameTarget: "cname.petstore-sites.net" })).toEqual([
      "petstore.dev",
      "petstore-sites.net"
    ])
    expect(reservedNamesOf({ ...settings, cnameTarget: "cname.sites.example.co.uk" })).toEqual([
      "petstore.dev",
      "example.co.uk"
    ])
    expect(
      reservedNamesOf({
        platformDomain: "docs.example.co.uk",
        cnameTarget: "cname.example.com",
        caIdentifier: "x"
      })
    ).toEqual(["example.co.uk", "example.com"])
  })

  it("names one domain once when both lie under it", () => {
    expect(
      reservedNamesOf({
        platformDomain: "docs.example.com",
        cnameTarget: "cname.example.com",
        caIdentifier: "x"
      })
    ).toEqual(["example.com"])
    expect(
      reservedNamesOf({ platformDomain: "example.com", cnameTarget: "cname.example.com", caIdentifier: "x" })
    ).toEqual(["example.com"])
  })

  it("reserves a name without a registrable domain (a public suffix) as it is", () => {
    expect(
      reservedNamesOf({ platformDomain: "docs.example.com", cnameTarget: "co.uk", caIdentifier: "x" })
    ).toEqual(["example.com", "co.uk"])
    expect(
      reservedNamesOf({ platformDomain: "github.io", cnameTarget: "cname.example.net", caIdentifier: "x" })
    ).toEqual(["github.io", "example.net"])
  })
})
