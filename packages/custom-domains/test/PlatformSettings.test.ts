import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PlatformSettings } from "../src/index.js"

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
