/**
 * What the platform is called in DNS: the domain its default hostnames live under, and the target
 * custom domains point to. Configuration, provided by the application.
 */
import { Config, Context, Layer } from "effect"

export class PlatformSettings extends Context.Tag("@petstore/domain/PlatformSettings")<
  PlatformSettings,
  {
    /** Default hostnames are `<project id>.<platformDomain>`. */
    readonly platformDomain: string
    /** The value of the CNAME (or ALIAS) record owners create. */
    readonly cnameTarget: string
  }
>() {}

/** `PETSTORE_PLATFORM_DOMAIN` and `PETSTORE_CNAME_TARGET`, with defaults for local use. */
export const platformSettingsConfig = Config.all({
  platformDomain: Config.string("PETSTORE_PLATFORM_DOMAIN").pipe(Config.withDefault("docs.petstore.test")),
  cnameTarget: Config.string("PETSTORE_CNAME_TARGET").pipe(Config.withDefault("cname.docs.petstore.test"))
}).pipe(
  Config.map(({ cnameTarget, platformDomain }) => ({
    platformDomain: platformDomain.toLowerCase().replace(/\.$/, ""),
    cnameTarget: cnameTarget.toLowerCase().replace(/\.$/, "")
  }))
)

export const platformSettingsLayer = Layer.effect(PlatformSettings, platformSettingsConfig)
