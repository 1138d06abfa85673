/**
 * What the platform is called in DNS: the domain its default hostnames live under, and the target
 * custom domains point to. Configuration, provided by the application.
 */
import { Context } from "effect"

export class PlatformSettings extends Context.Tag("@petstore/domain/PlatformSettings")<
  PlatformSettings,
  {
    /** Default hostnames are `<project id>.<platformDomain>`. */
    readonly platformDomain: string
    /** The value of the CNAME (or ALIAS) record owners create. */
    readonly cnameTarget: string
  }
>() {}
