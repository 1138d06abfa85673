/**
 * Which hostname a project is served at (`primary`) and which of its other domains redirect there
 * (301). `primary` is the default hostname or a verified domain of the project; each redirect goes
 * from another of its domains to the primary, so there can be no chain and no loop.
 */

import type { CustomDomain } from "@petstore/domains"
import { DnsName } from "@petstore/domains"
import { Result, Schema } from "effect"

export const redirectStatus = 301

// A class's struct carries its identifier too: JSON Schema names a class by its encoded side.
export class DomainRedirect extends Schema.Class<DomainRedirect>("DomainRedirect")(
  Schema.Struct({
    from: Schema.String,
    to: Schema.String,
    status: Schema.Literal(redirectStatus).annotate({ message: "must be 301" })
  }).annotate({ identifier: "DomainRedirect" })
) {}

export class DomainConfig extends Schema.Class<DomainConfig>("DomainConfig")(
  Schema.Struct({
    primary: Schema.String,
    redirects: Schema.Array(DomainRedirect)
  }).annotate({ identifier: "DomainConfig" })
) {}

/** Until the owner sets one: served at the default hostname, no redirects. */
export const defaultDomainConfig = (defaultHostname: string): DomainConfig =>
  new DomainConfig({ primary: defaultHostname, redirects: [] })

/** The same config with every hostname as DNS compares them: lower case, no trailing dot. */
export const normaliseDomainConfig = (config: DomainConfig): DomainConfig =>
  new DomainConfig({
    primary: DnsName.normalise(config.primary),
    redirects: config.redirects.map(
      (redirect) =>
        new DomainRedirect({
          ...redirect,
          from: DnsName.normalise(redirect.from),
          to: DnsName.normalise(redirect.to)
        })
    )
  })

/** The config if it follows the rules for this project, else the first rule broken, as "field: rule". */
export const validateDomainConfig = (
  config: DomainConfig,
  defaultHostname: string,
  domains: ReadonlyArray<CustomDomain>
): Result.Result<DomainConfig, string> => {
  const byHostname = new Map(domains.map((domain) => [domain.hostname as string, domain]))
  const primary = config.primary
  if (primary !== defaultHostname && byHostname.get(primary)?.status !== "verified") {
    return Result.fail(`primary: must be ${defaultHostname} or a verified domain of the project`)
  }
  const seen = new Set<string>()
  for (const [index, redirect] of config.redirects.entries()) {
    const at = `redirects.${index}`
    if (!byHostname.has(redirect.from)) return Result.fail(`${at}.from: must be a domain of the project`)
    if (redirect.from === primary) return Result.fail(`${at}.from: must not be the primary`)
    if (seen.has(redirect.from)) return Result.fail(`${at}.from: appears in more than one redirect`)
    if (redirect.to !== primary) return Result.fail(`${at}.to: must be the primary, ${primary}`)
    seen.add(redirect.from)
  }
  return Result.succeed(config)
}

/** The config once `hostname` is removed: its redirect goes, and a removed primary falls back. */
export const withoutDomain = (
  config: DomainConfig,
  hostname: string,
  defaultHostname: string
): DomainConfig => {
  if (config.primary === hostname) return defaultDomainConfig(defaultHostname)
  return new DomainConfig({
    ...config,
    redirects: config.redirects.filter((redirect) => redirect.from !== hostname)
  })
}
