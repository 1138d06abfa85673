/**
 * Where the API keeps its files (the embedded database, the local CA, the compile cache) when
 * `PETSTORE_DATA_DIR` does not say: one default for the configuration and the process entry.
 */
export const dataDirectoryVariable = "PETSTORE_DATA_DIR"

export const defaultDataDirectory = "./.data"
