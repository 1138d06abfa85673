/**
 * An account's projects by id: what counts them against the account's limit at every creation and
 * pages them for `GET /v1/projects`, in the byte order of their ids (`collate "C"`, whatever the
 * database's own collation), so a page's cursor means the same on every server.
 */

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`create index projects_by_account on projects (account, id collate "C")`
})
