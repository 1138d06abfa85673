/**
 * What the edge serves, as pure rules: a project's domain config (its primary and the redirects to
 * it) and the rules it must follow, and the edge's decision for a default hostname or a custom
 * domain: serve, redirect (301) or nothing (404).
 */
import { applyVerdict, type CustomDomain, Hostname, newCustomDomain, OwnershipToken } from "@petstore/domains"
import { AccountName } from "@petstore/kernel"
import { Project, ProjectId } from "@petstore/projects"
import {
  DomainConfig,
  DomainRedirect,
  decideForCustomDomain,
  decideForDefaultHostname,
  defaultDomainConfig,
  validateDomainConfig,
  withoutDomain
} from "@petstore/serving"
import { Result } from "effect"

const at = new Date("2027-03-01T12:00:00.000Z")
const acme = AccountName.make("acme")
const handbook = ProjectId.make("handbook")
const defaultHostname = "handbook.docs.example-platform.com"
const project = (plan: "free" | "pro", deployed: boolean) =>
  new Project({
    id: handbook,
    account: acme,
    plan,
    lastDeploy: null,
    lastSucceededDeployAt: deployed ? at : null,
    createdAt: at
  })
const domain = (hostname: string, verified: boolean): CustomDomain => {
  const added = newCustomDomain(
    { account: acme, projectId: handbook },
    Hostname.make(hostname),
    { token: OwnershipToken.make("5f0c2a9e7b3d41c8a6e2f0b9d7c5a3e1"), required: false },
    "cname.example-sites.net",
    at
  )
  return verified ? applyVerdict(added, { _tag: "Verified", problems: [] }, at) : added
}
const docs = domain("docs.example.com", true)
const www = domain("www.example.com", true)
const pending = domain("beta.example.com", false)

// The owner's config: served at docs.example.com, www.example.com redirects there.
const config = new DomainConfig({
  primary: "docs.example.com",
  redirects: [new DomainRedirect({ from: "www.example.com", to: "docs.example.com", status: 301 })]
})
const rule = (candidate: DomainConfig) =>
  Result.match(validateDomainConfig(candidate, defaultHostname, [docs, www, pending]), {
    onFailure: (broken) => broken,
    onSuccess: () => "valid"
  })
console.log(rule(config))
console.log(rule(new DomainConfig({ primary: "beta.example.com", redirects: [] })))
console.log(
  rule(
    new DomainConfig({
      primary: "docs.example.com",
      redirects: [new DomainRedirect({ from: "www.example.com", to: "www.example.com", status: 301 })]
    })
  )
)

// The edge's decisions.
const paid = project("pro", true)
console.log(decideForCustomDomain(docs, paid, config))
console.log(decideForCustomDomain(www, paid, config))
console.log(decideForCustomDomain(pending, paid, config)) // not verified
console.log(decideForCustomDomain(docs, project("free", true), config)) // custom domains need a paid plan
console.log(decideForDefaultHostname(project("free", true)), decideForDefaultHostname(project("pro", false)))

// Removing the primary's domain falls back to the default hostname.
console.log(withoutDomain(config, "docs.example.com", defaultHostname).primary)
console.log(defaultDomainConfig(defaultHostname).redirects.length)

// Output:
// valid
// primary: must be handbook.docs.example-platform.com or a verified domain of the project
// redirects.0.to: must be the primary, docs.example.com
// { action: 'serve', projectId: 'handbook' }
// {
//   action: 'redirect',
//   location: 'https://docs.example.com/',
//   status: 301
// }
// { action: 'none' }
// { action: 'none' }
// { action: 'serve', projectId: 'handbook' } { action: 'none' }
// handbook.docs.example-platform.com
// 0
