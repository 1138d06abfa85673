/**
 * The fuzzing suite through a real server on a PostgreSQL server (a fresh database for this file):
 * what the database refuses must come back as a clear 4xx, never a 5xx. An unreachable server fails.
 */
import { fuzzSuite } from "@petstore/http/testing"
import { postgresTestStorage } from "./support/TestStorage.js"

fuzzSuite("PostgreSQL", postgresTestStorage())
