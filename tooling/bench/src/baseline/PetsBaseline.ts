/**
 * The product's animal operations re-implemented without Effect, shared by the two baselines (Fastify
 * and raw `node:http`), so that a benchmark compares frameworks, not behaviours: the same SQL text as
 * `@petstore/store-pg` (sent as unnamed statements, `pg`'s default, where the product's driver prepares
 * and caches them), the same key check (SHA-256
 * lookup, constant-time compare, revocation), the same validation messages, headers and error bodies.
 * The equivalence test keeps this honest against the built product.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto"
import type { IncomingHttpHeaders, IncomingMessage } from "node:http"
import pg from "pg"

// ---------------------------------------------------------------------------------------------------
// Settings: the product's `DATABASE_URL`, `PORT` and `HOST`.

export interface ServerSettings {
  readonly databaseUrl: string
  readonly port: number
  readonly host: string
  readonly applicationName: string
}

export const serverSettings = (applicationName: string): ServerSettings => {
  const databaseUrl = process.env.DATABASE_URL
  if (databaseUrl === undefined || databaseUrl === "") {
    process.stderr.write(`${applicationName}: DATABASE_URL is required\n`)
    process.exit(2)
  }
  const port = Number(process.env.PORT ?? "3000")
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`${applicationName}: PORT must be a port number\n`)
    process.exit(2)
  }
  return { databaseUrl, port, host: process.env.HOST ?? "0.0.0.0", applicationName }
}

// ---------------------------------------------------------------------------------------------------
// Answers: what either server turns into a response.

export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

interface ErrorBody {
  readonly code: string
  readonly message: string
  readonly status: number
}

interface Pet {
  readonly id: number
  readonly name: string
  readonly categoryId: number
  readonly status: PetStatus
}

const errorAnswer = (
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {}
): Answer => ({
  status,
  headers: status === 503 ? { "retry-after": "5", ...headers } : headers,
  body: { code, message, status } satisfies ErrorBody
})

const invalidRequest = (message: string): Answer => errorAnswer(400, "invalid_request", message)

/** Any storage failure, as the product answers it (the cause is never shown). */
const unavailable: Answer = errorAnswer(503, "unavailable", "the service is temporarily unavailable")

export const internalError: Answer = errorAnswer(500, "internal", "internal error")

export const maxRequestBodyBytes = 64 * 1024

export const payloadTooLarge: Answer = errorAnswer(
  413,
  "payload_too_large",
  `body: must be at most ${maxRequestBodyBytes} bytes`
)

const unsupportedMediaType: Answer = errorAnswer(
  415,
  "unsupported_media_type",
  "Content-Type: must be application/json"
)

const invalidJson: Answer = invalidRequest("body: must be valid JSON")

// ---------------------------------------------------------------------------------------------------
// Request ids and routes that do not exist.

/** A client's `X-Request-Id` is kept when it is short, visible ASCII; otherwise a new one is made. */
export const requestIdFor = (header: string | Array<string> | undefined): string =>
  typeof header === "string" && /^[\x21-\x7E]{1,200}$/.test(header) ? header : randomUUID()

const petsPath = /^\/v1\/pets\/?$/
const petPath = /^\/v1\/pets\/([^/]+)\/?$/

/** The product's 404 for an unknown path, or its 405 with `Allow` for a known path and another method. */
export const routeNotFound = (method: string, pathname: string): Answer => {
  const allowed = petsPath.test(pathname) ? ["GET", "POST"] : petPath.test(pathname) ? ["GET"] : []
  if (allowed.length === 0 || allowed.includes(method))
    return errorAnswer(404, "not_found", `no resource at ${pathname}`)
  return errorAnswer(
    405,
    "method_not_allowed",
    `${method} is not allowed on ${pathname}; allowed: ${allowed.join(", ")}`,
    { allow: allowed.join(", ") }
  )
}

// ---------------------------------------------------------------------------------------------------
// The database: one pool of the product's size (node-postgres' default of 10) and its statements.

export const makePool = (connectionString: string, applicationName: string): pg.Pool => {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: 10_000,
    application_name: applicationName
  })
  pool.on("error", () => undefined)
  return pool
}

/** The statements exactly as `@effect/sql` renders the product's templates (whitespace included). */
const sql = {
  findKeyByHash: `
      select id, account, hash, created_at as "createdAt", revoked_at as "revokedAt"
      from api_keys where hash = $1`,
  listPets: (where: string, limitParameter: number) => `
        select id, name, category_id as "categoryId", status from pets
        where ${where}
        order by id
        limit $${limitParameter}`,
  findPet: `
      select id, name, category_id as "categoryId", status from pets where id = $1`,
  insertPet: `
      insert into pets (name, category_id, status)
      values ($1, $2, $3)
      returning id, name, category_id as "categoryId", status`,
  completeReservation: `
    update idempotency_keys set pet_id = $1
    where account = $2 and key = $3 and pet_id is null`,
  reserveKey: `
          insert into idempotency_keys (account, key, fingerprint, pet_id, created_at)
          values ($1, $2, $3, null, $4)
          on conflict (account, key) do nothing
          returning account`,
  lockKey: `
        select fingerprint, created_at as "createdAt", pet_id as "petId" from idempotency_keys
        where account = $1 and key = $2
        for update`,
  overwriteKey: `
            update idempotency_keys set fingerprint = $1, created_at = $2, pet_id = null
            where account = $3 and key = $4`,
  releaseKey: `
          delete from idempotency_keys
          where account = $1 and key = $2 and pet_id is null`
} as const

interface PetRow {
  readonly id: string
  readonly name: string
  readonly categoryId: string
  readonly status: PetStatus
}

const petFromRow = (row: PetRow): Pet => ({
  id: Number(row.id),
  name: row.name,
  categoryId: Number(row.categoryId),
  status: row.status
})

/** Runs `work` in a transaction on one connection of the pool, rolled back when it throws. */
const inTransaction = async <A>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<A>): Promise<A> => {
  const client = await pool.connect()
  try {
    await client.query("BEGIN")
    const result = await work(client)
    await client.query("COMMIT")
    return result
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

// ---------------------------------------------------------------------------------------------------
// Authentication: `Authorization: Bearer <key>`, looked up by SHA-256 hash, compared in constant time.

export type Authenticated =
  | { readonly _tag: "Caller"; readonly account: string }
  | { readonly _tag: "Refused"; readonly answer: Answer }

const realm = 'Bearer realm="petstore"'

const refused = (tokenPresented: boolean): Authenticated => ({
  _tag: "Refused",
  answer: tokenPresented
    ? errorAnswer(401, "unauthorized", "the API key is not valid", {
        "www-authenticate": `${realm}, error="invalid_token"`
      })
    : errorAnswer(401, "unauthorized", "an API key is required: Authorization: Bearer <key>", {
        "www-authenticate": realm
      })
})

const bearerToken = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined
  const token = /^Bearer +(\S+) *$/i.exec(header)?.[1]
  return token !== undefined && token.length <= 512 && /^[A-Za-z0-9\-._~+/]+=*$/.test(token)
    ? token
    : undefined
}

const hashEquals = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

interface KeyRow {
  readonly account: string
  readonly hash: string
  readonly revokedAt: Date | null
}

export const authenticate = async (pool: pg.Pool, header: string | undefined): Promise<Authenticated> => {
  // RFC 6750 §3.1: only a bearer credential that was sent and refused earns `invalid_token`.
  const tokenPresented = header !== undefined && /^Bearer +\S/i.test(header)
  const token = bearerToken(header)
  if (token === undefined) return refused(tokenPresented)
  const hash = createHash("sha256").update(token).digest("hex")
  let rows: Array<KeyRow>
  try {
    rows = (await pool.query<KeyRow>(sql.findKeyByHash, [hash])).rows
  } catch {
    return { _tag: "Refused", answer: unavailable }
  }
  const found = rows[0]
  if (found === undefined || !hashEquals(found.hash, hash) || found.revokedAt !== null) return refused(true)
  return { _tag: "Caller", account: found.account }
}

// ---------------------------------------------------------------------------------------------------
// GET /v1/pets: limit, status filter, keyset cursor; the next page in `Link`.

const petStatuses = ["available", "pending", "sold"] as const
type PetStatus = (typeof petStatuses)[number]
const isPetStatus = (value: unknown): value is PetStatus =>
  typeof value === "string" && (petStatuses as ReadonlyArray<string>).includes(value)

const statusRule = "must be one of available, pending, sold"
const limitRule = "must be an integer from 1 to 100"
const idRule = `must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`

/** Canonical decimal digits, as the product's query decoder accepts them. */
const decimal = (text: string): number | undefined =>
  /^(0|[1-9][0-9]{0,19})$/.test(text) ? Number(text) : undefined

/** A query parameter: absent, or exactly one value (a repeated parameter is refused, never picked). */
const single = (values: ReadonlyArray<string>): string | undefined | null =>
  values.length === 0 ? undefined : values.length === 1 ? (values[0] ?? null) : null

export const listPets = async (
  pool: pg.Pool,
  parameter: (name: string) => ReadonlyArray<string>
): Promise<Answer> => {
  const limitText = single(parameter("limit"))
  const limit = limitText === undefined ? 20 : limitText === null ? undefined : decimal(limitText)
  if (limit === undefined || !Number.isInteger(limit) || limit < 1 || limit > 100)
    return invalidRequest(`limit: ${limitRule}`)
  const status = single(parameter("status"))
  if (status === null || (status !== undefined && !isPetStatus(status)))
    return invalidRequest(`status: ${statusRule}`)
  const afterText = single(parameter("after"))
  const after = afterText === undefined ? undefined : afterText === null ? Number.NaN : decimal(afterText)
  if (afterText !== undefined && !(after !== undefined && Number.isSafeInteger(after) && after >= 1))
    return invalidRequest(`after: ${idRule}`)

  const conditions: Array<string> = []
  const values: Array<string | number> = []
  if (status !== undefined) {
    values.push(status)
    conditions.push(`status = $${values.length}`)
  }
  if (after !== undefined) {
    values.push(after)
    conditions.push(`id > $${values.length}`)
  }
  values.push(limit + 1)
  const where =
    conditions.length === 0
      ? "1=1"
      : conditions.length === 1
        ? `${conditions[0]}`
        : `(${conditions.join(" AND ")})`
  let rows: Array<PetRow>
  try {
    rows = (await pool.query<PetRow>(sql.listPets(where, values.length), values)).rows
  } catch {
    return unavailable
  }
  const pets = rows.slice(0, limit).map(petFromRow)
  const last = pets[pets.length - 1]
  if (rows.length <= limit || last === undefined) return { status: 200, headers: {}, body: pets }
  const next = new URLSearchParams({ limit: String(limit) })
  if (status !== undefined) next.set("status", status)
  next.set("after", String(last.id))
  return { status: 200, headers: { link: `</v1/pets?${next.toString()}>; rel="next"` }, body: pets }
}

// ---------------------------------------------------------------------------------------------------
// GET /v1/pets/{petId}: deprecated; its headers go on every answer, 401 included.

export const getPetDeprecationHeaders: Readonly<Record<string, string>> = {
  deprecation: "@1795564800",
  sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
  link: '</v1/pets>; rel="successor-version"'
}

const getPetRemovedAtMillis = Date.UTC(2030, 11, 5)

const withDeprecation = (answer: Answer): Answer => ({
  ...answer,
  headers: { ...answer.headers, ...getPetDeprecationHeaders }
})

/** Adds the deprecation headers to an answer of `GET /v1/pets/{petId}` (a 401, say). */
export const deprecated = withDeprecation

export const getPet = async (pool: pg.Pool, idText: string): Promise<Answer> => {
  if (Date.now() >= getPetRemovedAtMillis)
    return withDeprecation(
      errorAnswer(410, "gone", "GET /v1/pets/{petId} was removed on 2030-12-05; use GET /v1/pets")
    )
  const notFound = withDeprecation(
    errorAnswer(404, "not_found", `no animal with id ${JSON.stringify(idText)}`)
  )
  if (!(/^[1-9][0-9]{0,15}$/.test(idText) && Number.isSafeInteger(Number(idText)))) return notFound
  let rows: Array<PetRow>
  try {
    rows = (await pool.query<PetRow>(sql.findPet, [Number(idText)])).rows
  } catch {
    return withDeprecation(unavailable)
  }
  const row = rows[0]
  return row === undefined ? notFound : withDeprecation({ status: 200, headers: {}, body: petFromRow(row) })
}

// ---------------------------------------------------------------------------------------------------
// POST /v1/pets: the body checks (size, media type), the payload rules, `Idempotency-Key`.

/** `application/json`, with or without parameters such as `charset` (other `+json` types are 415). */
const isJsonMediaType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const essence = contentType.split(";")[0]?.trim().toLowerCase() ?? ""
  return essence === "application/json"
}

/** What the product refuses before reading a byte of the body: a declared size over 64 KiB, then not JSON. */
export const bodyPrecheck = (headers: IncomingHttpHeaders): Answer | undefined => {
  const length = headers["content-length"]
  if (length !== undefined && Number(length) > maxRequestBodyBytes) return payloadTooLarge
  if (!isJsonMediaType(headers["content-type"])) return unsupportedMediaType
  return undefined
}

/** The whole body as text if it fits in 64 KiB; past that the rest is drained unread and `undefined` returned. */
export const readBodyAtMost = (request: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let exceeded = false
    request.on("data", (chunk: Buffer) => {
      if (exceeded) return
      size += chunk.length
      if (size > maxRequestBodyBytes) {
        exceeded = true
        resolve(undefined)
      } else {
        chunks.push(chunk)
      }
    })
    request.once("end", () => {
      if (!exceeded) resolve(Buffer.concat(chunks).toString("utf8"))
    })
    request.once("error", () => {
      if (!exceeded) resolve(undefined)
    })
  })

/**
 * The payload the product decodes: JSON text parsed (empty is `null`) when the media type contains
 * `application/json`; for another `+json` type the product decodes the raw bytes, which can never
 * hold a `name` (a quirk of the product reproduced here).
 */
export const parsePayload = (
  contentType: string | undefined,
  text: string
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly answer: Answer } => {
  if (!(contentType ?? "application/json").toLowerCase().trim().includes("application/json"))
    return { ok: true, value: Buffer.from(text) }
  try {
    return { ok: true, value: text === "" ? null : JSON.parse(text) }
  } catch {
    return { ok: false, answer: invalidJson }
  }
}

interface NewPet {
  readonly name: string
  readonly categoryId: number
  readonly status: PetStatus | undefined
}

const characterLength = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

const petNameProblem = (name: string): string | undefined => {
  const length = characterLength(name)
  if (length < 1 || length > 200) return "must be 1 to 200 characters"
  if (name.trim().length === 0) return "must not be blank"
  if (/\p{Cc}/u.test(name)) return "must not contain control characters"
  return undefined
}

/** The product's `NewPet` rules, checked in its field order; the first problem is the message. */
const decodeNewPet = (payload: unknown): NewPet | Answer => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload))
    return invalidRequest("body: must be a JSON object with the documented fields")
  const fields = payload as Record<string, unknown>
  if (!Object.hasOwn(fields, "name")) return invalidRequest("name: is required")
  const name = fields.name
  if (typeof name !== "string") return invalidRequest("name: must be a string")
  const nameProblem = petNameProblem(name)
  if (nameProblem !== undefined) return invalidRequest(`name: ${nameProblem}`)
  if (!Object.hasOwn(fields, "categoryId")) return invalidRequest("categoryId: is required")
  const categoryId = fields.categoryId
  if (typeof categoryId !== "number" || !Number.isSafeInteger(categoryId) || categoryId < 1)
    return invalidRequest(`categoryId: ${idRule}`)
  if (Object.hasOwn(fields, "status") && !isPetStatus(fields.status))
    return invalidRequest(`status: ${statusRule}`)
  return { name, categoryId, status: isPetStatus(fields.status) ? fields.status : undefined }
}

const isAnswer = (value: NewPet | Answer): value is Answer => "body" in value

interface KeyRecordRow {
  readonly fingerprint: string
  readonly createdAt: Date
  readonly petId: string | null
}

type Reservation =
  | { readonly _tag: "Proceed" }
  | { readonly _tag: "Replay"; readonly petId: number }
  | { readonly _tag: "KeyReused" }
  | { readonly _tag: "InFlight" }

const retentionMillis = 24 * 60 * 60 * 1000
const inFlightLeaseMillis = 60 * 1000

const decideReservation = (record: KeyRecordRow, fingerprint: string, nowMillis: number): Reservation => {
  const age = nowMillis - record.createdAt.getTime()
  if (record.petId !== null) {
    if (age >= retentionMillis) return { _tag: "Proceed" }
    return record.fingerprint === fingerprint
      ? { _tag: "Replay", petId: Number(record.petId) }
      : { _tag: "KeyReused" }
  }
  if (age >= inFlightLeaseMillis) return { _tag: "Proceed" }
  return record.fingerprint === fingerprint ? { _tag: "InFlight" } : { _tag: "KeyReused" }
}

/** The product's reservation: insert, or lock the existing row and decide; retried if the row vanished. */
const reserve = (pool: pg.Pool, account: string, key: string, fingerprint: string, now: Date) =>
  inTransaction(pool, async (client): Promise<Reservation> => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const inserted = await client.query(sql.reserveKey, [account, key, fingerprint, now])
      if (inserted.rows.length > 0) return { _tag: "Proceed" }
      const existing = (await client.query<KeyRecordRow>(sql.lockKey, [account, key])).rows[0]
      if (existing === undefined) continue
      const decision = decideReservation(existing, fingerprint, now.getTime())
      if (decision._tag === "Proceed") await client.query(sql.overwriteKey, [fingerprint, now, account, key])
      return decision
    }
    throw new Error("the idempotency row vanished 5 times between insert and lock")
  })

const created = (pet: Pet, replayed: boolean): Answer => ({
  status: 201,
  headers: replayed
    ? { location: `/v1/pets/${pet.id}`, "idempotent-replayed": "true" }
    : { location: `/v1/pets/${pet.id}` },
  body: pet
})

const insertPet = async (client: pg.Pool | pg.PoolClient, pet: NewPet): Promise<Pet> => {
  const rows = (
    await client.query<PetRow>(sql.insertPet, [pet.name, pet.categoryId, pet.status ?? "available"])
  ).rows
  const row = rows[0]
  if (row === undefined) throw new Error("insert returned no row")
  return petFromRow(row)
}

const createWithKey = async (pool: pg.Pool, account: string, key: string, pet: NewPet): Promise<Answer> => {
  const fingerprint = JSON.stringify([pet.name, pet.categoryId, pet.status ?? null])
  const decision = await reserve(pool, account, key, fingerprint, new Date())
  switch (decision._tag) {
    case "KeyReused":
      return errorAnswer(
        422,
        "idempotency_key_reused",
        "Idempotency-Key: was already used with a different body"
      )
    case "InFlight":
      return errorAnswer(
        409,
        "conflict",
        "Idempotency-Key: a request with this key is still in progress; retry later"
      )
    case "Replay": {
      const original = (await pool.query<PetRow>(sql.findPet, [decision.petId])).rows[0]
      // Animals are never deleted, so the original is there; if storage lost it, create afresh.
      if (original !== undefined) return created(petFromRow(original), true)
      break
    }
    case "Proceed":
      break
  }
  try {
    const inserted = await inTransaction(pool, async (client) => {
      const row = await insertPet(client, pet)
      await client.query(sql.completeReservation, [row.id, account, key])
      return row
    })
    return created(inserted, false)
  } catch (error) {
    await pool.query(sql.releaseKey, [account, key]).catch(() => undefined)
    throw error
  }
}

/**
 * Creates an animal from a parsed payload: the `Idempotency-Key` header first, then the payload (the
 * product decodes them in this order, as `HttpApi` does: headers before the body), then storage.
 */
export const createPet = async (
  pool: pg.Pool,
  account: string,
  payload: unknown,
  idempotencyKey: string | Array<string> | undefined
): Promise<Answer> => {
  if (
    idempotencyKey !== undefined &&
    !(typeof idempotencyKey === "string" && /^[\x21-\x7E]{1,255}$/.test(idempotencyKey))
  )
    return invalidRequest("idempotency-key: must be 1 to 255 visible ASCII characters")
  const pet = decodeNewPet(payload)
  if (isAnswer(pet)) return pet
  try {
    return idempotencyKey === undefined
      ? created(await insertPet(pool, pet), false)
      : await createWithKey(pool, account, idempotencyKey, pet)
  } catch {
    return unavailable
  }
}
