/**
 * What the platform is called in DNS: the domain its default hostnames live under, the target custom
 * domains point to, and the identifier of the CA it gets certificates from (what CAA records must
 * name). The application gives them: `PlatformSettings.layer(names)`.
 */

import { defaultHostnameOf, type ProjectId } from "@petstore/projects"
import { Context, Effect, Layer, Option, Result } from "effect"
import * as DnsName from "./DnsName.js"
import { type Hostname, normaliseHostname } from "./Hostname.js"

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
>()("@petstore/domains/PlatformSettings") {
  /** These names, as DNS compares them: trimmed, lower case, no trailing dot. */
  static readonly layer = (names: PlatformSettings["Service"]): Layer.Layer<PlatformSettings> =>
    Layer.succeed(PlatformSettings, {
      platformDomain: DnsName.normalise(names.platformDomain),
      cnameTarget: DnsName.normalise(names.cnameTarget),
      caIdentifier: DnsName.normalise(names.caIdentifier)
    })
}

/** The platform subdomain project `id` is published at: `<id>.<platform domain>`. */
export const defaultHostname = (id: ProjectId): Effect.Effect<string, never, PlatformSettings> =>
  Effect.map(PlatformSettings, (settings) => defaultHostnameOf(id, settings.platformDomain))

/** A name's registrable domain (`example.com` for `docs.example.com`); a public suffix stays as it is. */
const registrableOrSelf = (name: string): string =>
  Option.getOrElse(DnsName.registrableDomain(name), () => name)

/**
 * The names no custom domain may be at or under (contract section 4): the registrable domain of the
 * platform domain (`petstore.dev` for `docs.petstore.dev`: its default hostnames and every other name
 * of the platform's own domain) and that of the CNAME target (`example-sites.net` for
 * `cname.example-sites.net`), which every verified domain points to. Both are the platform's, not a
 * tenant's.
 */
export const reservedNamesOf = (settings: PlatformSettings["Service"]): ReadonlyArray<string> => {
  const platform = registrableOrSelf(settings.platformDomain)
  const target = registrableOrSelf(settings.cnameTarget)
  return target === platform ? [platform] : [platform, target]
}

/**
 * `text` as a custom domain's hostname on this platform (`normaliseHostname` with `reservedNamesOf`),
 * or the rule it breaks: what the API's bodies and paths name hostnames and apexes with.
 */
export const customHostname = (text: string): Effect.Effect<Hostname, string, PlatformSettings> =>
  Effect.flatMap(PlatformSettings, (settings) =>
    Result.match(normaliseHostname(text, reservedNamesOf(settings)), {
      onFailure: Effect.fail,
      onSuccess: Effect.succeed
    })
  )
