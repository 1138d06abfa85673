/**
 * What the platform is called in DNS, as both processes read it: the API answers with these names
 * and its edge serves under them, the worker checks custom domains against them.
 */
import type { PlatformSettings } from "@petstore/domains"
import { Config } from "effect"

/**
 * `PETSTORE_PLATFORM_DOMAIN`, `PETSTORE_CNAME_TARGET` and `PETSTORE_CA_IDENTIFIER`, with defaults for
 * local use (and Let's Encrypt's CAA identifier). `PlatformSettings.layer` normalises them.
 */
export const PlatformConfig: Config.Config<PlatformSettings["Service"]> = Config.all({
  platformDomain: Config.String("PETSTORE_PLATFORM_DOMAIN").pipe(Config.withDefault("docs.petstore.test")),
  cnameTarget: Config.String("PETSTORE_CNAME_TARGET").pipe(Config.withDefault("cname.docs.petstore.test")),
  caIdentifier: Config.String("PETSTORE_CA_IDENTIFIER").pipe(Config.withDefault("letsencrypt.org"))
})
