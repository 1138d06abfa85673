/**
 * @petstore/acme: the domain's CertificateIssuer port on an ACME CA (RFC 8555, `acme-client`),
 * with HTTP-01 challenges published through an Http01ChallengeStore.
 */
export * as AcmeCertificateIssuer from "./AcmeCertificateIssuer.js"
export * as Http01ChallengeStore from "./Http01ChallengeStore.js"
