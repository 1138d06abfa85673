/**
 * @petstore/dns: the domain's DNS port on a real resolver, and the parsing of the server list.
 */
export * as DnsServers from "./DnsServers.js"
export * as NodeDnsResolver from "./NodeDnsResolver.js"
