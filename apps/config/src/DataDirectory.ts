/**
 * Where the apps keep their files (the embedded database, the local CA, the generated secret, the
 * API's compile cache) when `PETSTORE_DATA_DIR` does not say: one default for the configuration and
 * the API's entry. This module imports nothing, so that the API's entry can read the directory
 * before anything else is loaded (see `configuredDataDirectory`).
 */
export const dataDirectoryVariable = "PETSTORE_DATA_DIR"

export const defaultDataDirectory = "./.data"

/**
 * The data directory `environment` names (unset or empty: the default), read without `effect`'s
 * `Config`: for the API's entry, which turns Node's compile cache on in that directory before it
 * loads the rest of the process.
 */
export const configuredDataDirectory = (
  environment: Readonly<Record<string, string | undefined>> = process.env
): string => environment[dataDirectoryVariable] || defaultDataDirectory
