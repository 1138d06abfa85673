/**
 * The list of DNS servers to ask, as an operator writes it: comma-separated IP literals, each
 * optionally with a port (`192.0.2.53`, `192.0.2.53:8053`, `2001:db8::53`, `[2001:db8::53]:8053`).
 * Checked strictly here because Node's own `setServers` parses loosely (a port of 99999 wraps
 * around) and even aborts the process on some inputs (`127.0.0.1:0`).
 */
import { isIPv4, isIPv6 } from "node:net"
import { Effect, Result, Schema, SchemaGetter, SchemaIssue } from "effect"

const withPort = (host: string, port: string | undefined, bracket: boolean): string => {
  if (port === undefined) return host
  return bracket ? `[${host}]:${port}` : `${host}:${port}`
}

const portProblem = (port: string): string | undefined =>
  /^[0-9]{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535
    ? undefined
    : `port "${port}" must be a number from 1 to 65535`

const ipv6Problem = (host: string): string | undefined => {
  if (host.includes("%")) return `"${host}": IPv6 zone ids are not supported`
  return isIPv6(host) ? undefined : `"${host}" is not an IPv6 address`
}

/**
 * One server: `host`, `host:port` or `[v6]:port` (also `[v6]` and a bare IPv6 address), where the
 * host is an IP address (Node's resolver takes no names). Returns the normalised form that
 * `Resolver.setServers` accepts, or what is wrong with it.
 */
export const parseServer = (text: string): Result.Result<string, string> => {
  const entry = text.trim()
  if (entry === "") return Result.fail("empty server entry")
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry)
  if (bracketed !== null) {
    const host = bracketed[1] ?? ""
    const port = bracketed[2]
    const problem = ipv6Problem(host) ?? (port === undefined ? undefined : portProblem(port))
    return problem === undefined ? Result.succeed(withPort(host, port, true)) : Result.fail(problem)
  }
  if (entry.includes(":") && entry.indexOf(":") !== entry.lastIndexOf(":")) {
    // Two colons or more: a bare IPv6 address (a port needs the bracketed form).
    const problem = ipv6Problem(entry)
    return problem === undefined
      ? Result.succeed(entry)
      : Result.fail(`${problem} (write an IPv6 address with a port as [address]:port)`)
  }
  const [host = "", port] = entry.split(":")
  if (!isIPv4(host)) return Result.fail(`"${host}" is not an IP address (the resolver takes no host names)`)
  const problem = port === undefined ? undefined : portProblem(port)
  return problem === undefined ? Result.succeed(withPort(host, port, false)) : Result.fail(problem)
}

/**
 * A comma-separated list of servers: at least one, each as {@link parseServer} takes it; spaces
 * around entries are ignored. The failure names every bad entry.
 */
export const parseServers = (text: string): Result.Result<ReadonlyArray<string>, string> => {
  if (text.trim() === "")
    return Result.fail("no DNS server given: expected a comma-separated list of host[:port]")
  const servers: Array<string> = []
  const problems: Array<string> = []
  for (const [index, entry] of text.split(",").entries()) {
    Result.match(parseServer(entry), {
      onFailure: (problem) => problems.push(`entry ${index + 1}: ${problem}`),
      onSuccess: (server) => servers.push(server)
    })
  }
  return problems.length === 0
    ? Result.succeed(servers)
    : Result.fail(`invalid DNS servers: ${problems.join("; ")}`)
}

/**
 * The text of a server list decoded into `NodeDnsResolver.Options["servers"]` by {@link parseServers}:
 * its failure names every bad entry.
 */
export const ServerList = Schema.String.pipe(
  Schema.decodeTo(Schema.Array(Schema.String), {
    decode: SchemaGetter.transformEffect((text) =>
      Result.match(parseServers(text), {
        onFailure: (rule) => Effect.fail(new SchemaIssue.InvalidValue({ message: rule })),
        onSuccess: Effect.succeed
      })
    ),
    encode: SchemaGetter.transform((servers) => servers.join(","))
  })
)
