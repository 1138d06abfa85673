/**
 * @petstore/acme: the domain's CertificateIssuer port on an ACME CA (RFC 8555, `acme-client`), with
 * HTTP-01 challenges published through the domain's Http01ChallengeStore, and on a local CA inside
 * the process (the embedded default's `tls internal`).
 */
export * as AcmeCertificateIssuer from "./AcmeCertificateIssuer.js"
export * as CertificateAuthority from "./CertificateAuthority.js"
export * as LocalCertificateAuthority from "./LocalCertificateAuthority.js"
