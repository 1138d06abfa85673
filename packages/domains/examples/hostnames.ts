/**
 * Hostnames as the platform takes them: normalised (case, IDN, trailing dot), refused with the rule
 * they break, classified as apex or subdomain, and the DNS record their owner must create.
 */
import { dnsInstruction, hostnameKind, normaliseHostname, reservedNamesOf } from "@petstore/domains"
import { Result } from "effect"

const platform = {
  platformDomain: "docs.example-platform.com",
  cnameTarget: "cname.example-sites.net",
  caIdentifier: "letsencrypt.org"
}
const reserved = reservedNamesOf(platform)
console.log(reserved)

for (const input of [
  "Docs.Example.com.",
  "Bücher.de",
  "example.co.uk",
  "handbook.docs.example-platform.com"
]) {
  const hostname = normaliseHostname(input, reserved)
  if (Result.isFailure(hostname)) {
    console.log(`${input}: ${hostname.failure}`)
    continue
  }
  const record = dnsInstruction(hostname.success, hostnameKind(hostname.success), platform.cnameTarget)
  console.log(
    `${input}: ${hostname.success} (${hostnameKind(hostname.success)}), ${record.type} → ${record.value}`
  )
}

for (const input of ["localhost", "203.0.113.7", "docs.example.com:8080", "docs.example.test"]) {
  console.log(`${input}: ${Result.getOrElse(normaliseHostname(input, reserved), (rule) => rule)}`)
}

// Output:
// [ 'example-platform.com', 'example-sites.net' ]
// Docs.Example.com.: docs.example.com (subdomain), CNAME → cname.example-sites.net
// Bücher.de: xn--bcher-kva.de (apex), ALIAS → cname.example-sites.net
// example.co.uk: example.co.uk (apex), ALIAS → cname.example-sites.net
// handbook.docs.example-platform.com: must not be under example-platform.com
// localhost: must have at least two labels, such as example.com
// 203.0.113.7: must be a name, not an address
// docs.example.com:8080: must be a hostname such as docs.example.com
// docs.example.test: must be under a public suffix such as .com
