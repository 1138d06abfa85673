/**
 * What the platform is called in DNS: the domain its default hostnames live under, the target custom
 * domains point to, and the identifier of the CA it gets certificates from (what CAA records must
 * name). Configuration, provided by the application.
 */
import { Config, Context, Layer } from "effect"
import { registrableDomainOf } from "./Hostname.js"

export class PlatformSettings extends Context.Service<
  PlatformSettings,
  {
    /** Default hostnames are `<project id>.<platformDomain>`. */
    readonly platformDomain: string
    /** The value of the CNAME (or ALIAS) record owners create. */
    readonly cnameTarget: string
    /** The CA's issuer domain for CAA (RFC 8659), e.g. `letsencrypt.org`. */
    readonly caIdentifier: string
  }
>()("@petstore/custom-domains/PlatformSettings") {}

/**
 * The domains no custom domain may be at or under: the platform domain (its default hostnames) and
 * the registrable domain of the CNAME target (`example-sites.net` for `cname.example-sites.net`), which
 * every verified domain points to and which is the platform's, not a tenant's.
 */
export const reservedDomainsOf = (settings: PlatformSettings["Service"]): ReadonlyArray<string> => {
  const target = registrableDomainOf(settings.cnameTarget) ?? settings.cnameTarget
  return target === settings.platformDomain ? [settings.platformDomain] : [settings.platformDomain, target]
}

const dnsName = (name: string) => name.trim().toLowerCase().replace(/\.$/, "")

/**
 * `PETSTORE_PLATFORM_DOMAIN`, `PETSTORE_CNAME_TARGET` and `PETSTORE_CA_IDENTIFIER`, with defaults for
 * local use (and Let's Encrypt's CAA identifier).
 */
export const platformSettingsConfig = Config.all({
  platformDomain: Config.String("PETSTORE_PLATFORM_DOMAIN").pipe(Config.withDefault("docs.petstore.test")),
  cnameTarget: Config.String("PETSTORE_CNAME_TARGET").pipe(Config.withDefault("cname.docs.petstore.test")),
  caIdentifier: Config.String("PETSTORE_CA_IDENTIFIER").pipe(Config.withDefault("letsencrypt.org"))
}).pipe(
  Config.map(({ caIdentifier, cnameTarget, platformDomain }) => ({
    platformDomain: dnsName(platformDomain),
    cnameTarget: dnsName(cnameTarget),
    caIdentifier: dnsName(caIdentifier)
  }))
)

export const platformSettingsLayer = Layer.effect(PlatformSettings, platformSettingsConfig)
