/**
 * The files of the local CA in its directory: shared by the CA and by the configuration that tells an
 * operator which file to trust, without loading the CA's code.
 */
export const rootCertificateFile = "root.crt"
export const rootKeyFile = "root.key"
