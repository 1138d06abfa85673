/**
 * What the API and the worker read from their environment for the adapters they both run: the DNS
 * checks' resolver, the certificate authority, the secret for private keys at rest, and the collector
 * traces go to. The adapters take these as plain options; one reading serves both processes, so an
 * operator configures them alike.
 */
import type { AcmeAccount } from "@petstore/acme/CertificateAuthority"
import { DnsServers, type NodeDnsResolver } from "@petstore/dns"
import { Config, Duration, Schema } from "effect"

const DnsTries = Schema.Int.check(
  Schema.isBetween({ minimum: 1, maximum: 10 }, { message: "must be an integer from 1 to 10" })
)

/**
 * The resolver of the DNS checks: `PETSTORE_DNS_SERVERS` (comma-separated `host:port`, default the
 * system's), `PETSTORE_DNS_TIMEOUT` (per try, default 2 seconds), `PETSTORE_DNS_TRIES` (default 2).
 */
export const DnsConfig: Config.Config<NodeDnsResolver.Options> = Config.all({
  servers: Config.schema(DnsServers.ServerList, "PETSTORE_DNS_SERVERS").pipe(Config.withDefault(undefined)),
  timeout: Config.Duration("PETSTORE_DNS_TIMEOUT").pipe(Config.withDefault(Duration.seconds(2))),
  tries: Config.schema(DnsTries, "PETSTORE_DNS_TRIES").pipe(Config.withDefault(2))
})

/** The ACME CA at `PETSTORE_ACME_DIRECTORY_URL` (contact `PETSTORE_ACME_EMAIL`); unset, the local CA. */
export const AcmeConfig: Config.Config<AcmeAccount | undefined> = Config.all({
  directoryUrl: Config.URL("PETSTORE_ACME_DIRECTORY_URL").pipe(Config.withDefault(undefined)),
  email: Config.String("PETSTORE_ACME_EMAIL").pipe(Config.withDefault(undefined))
}).pipe(
  Config.map(({ directoryUrl, email }) => (directoryUrl === undefined ? undefined : { directoryUrl, email }))
)

/** Encrypts certificates' private keys at rest; unset, a secret generated into the data directory. */
export const SecretKeyConfig = Config.Redacted("PETSTORE_SECRET_KEY").pipe(Config.withDefault(undefined))

/** The adapters' settings, read together: a process reads them with the rest, before it opens storage. */
export const AdapterConfig = Config.all({ dns: DnsConfig, acme: AcmeConfig, secretKey: SecretKeyConfig })

/** The OpenTelemetry collector traces are sent to (OTLP/HTTP); unset, no tracing. */
export const OtlpEndpointConfig = Config.String("OTEL_EXPORTER_OTLP_ENDPOINT").pipe(
  Config.withDefault(undefined)
)
