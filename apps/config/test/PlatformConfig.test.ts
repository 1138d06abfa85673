import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { PlatformConfig } from "../src/index.js"

const load = (env: Record<string, string>) =>
  PlatformConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))

describe("PlatformConfig", () => {
  it.effect("defaults to the local names and Let's Encrypt's CAA identifier", () =>
    Effect.gen(function* () {
      expect(yield* load({})).toStrictEqual({
        platformDomain: "docs.petstore.test",
        cnameTarget: "cname.docs.petstore.test",
        caIdentifier: "letsencrypt.org"
      })
    })
  )

  it.effect("reads the three names from the environment", () =>
    Effect.gen(function* () {
      expect(
        yield* load({
          PETSTORE_PLATFORM_DOMAIN: "sites.example.net",
          PETSTORE_CNAME_TARGET: "cname.sites.example.net",
          PETSTORE_CA_IDENTIFIER: "pki.goog"
        })
      ).toStrictEqual({
        platformDomain: "sites.example.net",
        cnameTarget: "cname.sites.example.net",
        caIdentifier: "pki.goog"
      })
    })
  )
})
