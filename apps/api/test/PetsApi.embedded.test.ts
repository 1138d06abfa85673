/**
 * The HTTP contract suite through a real server on the embedded PostgreSQL (PGlite) in a fresh data
 * directory, stored exactly as the API process stores it.
 */
import { petsApiSuite } from "@petstore/http/testing"
import { embeddedTestStorage } from "./support/TestStorage.js"

petsApiSuite("embedded PostgreSQL", embeddedTestStorage())
