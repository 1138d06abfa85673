/**
 * The throwaway database a benchmark runs on: created on the test PostgreSQL server (the same
 * `PETSTORE_TEST_DATABASE_URL` the tests use), seeded once the product has migrated it, dropped at
 * the end. A server that cannot be reached fails the run with a message saying so.
 */
import { randomBytes } from "node:crypto"
import pg from "pg"

const serverUrlVariable = "PETSTORE_TEST_DATABASE_URL"
const defaultServerUrl = "postgres://postgres@127.0.0.1:5432/postgres"

export interface BenchDatabase {
  readonly name: string
  readonly url: string
  readonly serverUrl: string
}

const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "(unparsable URL)"
  }
}

/** Runs `work` on one connection to `url`, closed afterwards. */
const withClient = async <A>(url: string, work: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
  client.on("error", () => undefined)
  try {
    await client.connect()
    return await work(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

const serverUrl = (): string => {
  const fromEnvironment = process.env[serverUrlVariable]
  return fromEnvironment === undefined || fromEnvironment === "" ? defaultServerUrl : fromEnvironment
}

export const createBenchDatabase = async (): Promise<BenchDatabase> => {
  const server = serverUrl()
  const name = `petstore_bench_${randomBytes(6).toString("hex")}`
  try {
    await withClient(server, (client) => client.query(`create database "${name}"`))
  } catch (error) {
    throw new Error(
      `PostgreSQL for the benchmark (${describeUrl(server)}) failed: ${error instanceof Error ? error.message : String(error)}. ` +
        `Start PostgreSQL there or set ${serverUrlVariable} to a server where the user may create databases.`
    )
  }
  const url = new URL(server)
  url.pathname = `/${name}`
  return { name, url: url.toString(), serverUrl: server }
}

export const dropBenchDatabase = (database: BenchDatabase): Promise<void> =>
  withClient(database.serverUrl, async (client) => {
    await client.query(`drop database if exists "${database.name}" with (force)`)
  })

/**
 * Seeds `count` animals (ids 1..count, the three statuses in turn, 40 categories) into the migrated
 * database and refreshes the planner's statistics.
 */
export const seedPets = (database: BenchDatabase, count: number): Promise<void> =>
  withClient(database.url, async (client) => {
    await client.query(
      `insert into pets (name, category_id, status)
       select 'pet ' || g, 1 + (g % 40), (array['available', 'pending', 'sold'])[1 + (g % 3)]
       from generate_series(1, $1::int) as g`,
      [count]
    )
    await client.query("vacuum analyze pets")
  })

/** The PostgreSQL server's version line, for the report. */
export const serverVersion = (database: BenchDatabase): Promise<string> =>
  withClient(database.url, async (client) => {
    const rows = (
      await client.query<{ readonly version: string }>("select current_setting('server_version') as version")
    ).rows
    return rows[0]?.version ?? "unknown"
  })
