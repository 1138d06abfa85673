/**
 * The HTTP contract suite through a real server on a PostgreSQL server: a fresh database for this
 * file, stored exactly as the API process stores it. An unreachable server fails the suite.
 */
import { petsApiSuite } from "@petstore/http/testing"
import { postgresTestStorage } from "./support/TestStorage.js"

petsApiSuite("PostgreSQL", postgresTestStorage())
