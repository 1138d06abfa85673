/**
 * Webhook secrets at rest (contract section 9): a secret the repository makes or rotates in is never
 * stored in plain text, neither in its column nor anywhere in the embedded database's files (its WAL
 * included), and reads back whole through the cipher that sealed it only.
 */
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import type * as PgClient from "@effect/sql-pg/PgClient"
import { describe, expect, it } from "@effect/vitest"
import { CustomDomainRepository } from "@petstore/domains"
import { ProjectId } from "@petstore/projects"
import { ContractFixtures, projectWith, storeWebhook } from "@petstore/testing"
import { WebhookDeliveryRepository, WebhookRepository } from "@petstore/webhooks"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import {
  EmbeddedPostgres,
  PgMigrations,
  PgStore,
  PgWebhookRepository,
  PrivateKeyCipher
} from "../src/index.js"
import { bothServers } from "./bothServers.js"
import { temporaryDirectory } from "./temporaryDirectory.js"
import { testCipher } from "./testCipher.js"

/** The secret's random part, in the base64 and the bytes it could be written as. */
const spellingsOf = (secret: string): ReadonlyArray<Buffer> => {
  const base64 = secret.slice("whsec_".length)
  return [Buffer.from(base64, "utf8"), Buffer.from(base64, "base64")]
}

const store = (client: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  PgWebhookRepository.layer.pipe(
    Layer.provide(PgMigrations.layer),
    Layer.provideMerge(client),
    Layer.provideMerge(testCipher)
  )

/** Every port, for the tests that need domains and deliveries too. */
const fullStore = (client: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, unknown>) =>
  PgStore.layer.pipe(
    Layer.provide(PgMigrations.layer),
    Layer.provideMerge(client),
    Layer.provideMerge(testCipher)
  )

const withProject = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`insert into projects (id, account, plan, created_at) values ('sealed', 'acct', 'pro', now())`
  return ProjectId.make("sealed")
})

describe("webhook secrets at rest", () => {
  for (const [name, client] of bothServers) {
    it.effect(
      `on ${name}: the columns hold neither secret, current or rotated out; another cipher cannot read them`,
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const webhooks = yield* WebhookRepository
          const projectId = yield* withProject
          const created = yield* webhooks.insert(
            { projectId, url: "https://hooks.example.com/in", events: null },
            new Date(),
            10
          )
          const rotated = Option.getOrThrow(yield* webhooks.rotateSecret(projectId, created.id, new Date()))
          const [row] = yield* sql<{ readonly secret: string; readonly previous: string }>`
            select secret, previous_secret as previous from webhooks where id = ${created.id}`
          const stored = `${row?.secret} ${row?.previous}`
          for (const secret of [created.secret, rotated.secret]) {
            expect(stored).not.toContain(secret.slice("whsec_".length, -1))
          }
          expect(row?.secret).toMatch(/^v1\./)
          expect(
            Option.map(yield* webhooks.find(projectId, created.id), (webhook) => webhook.secret)
          ).toEqual(Option.some(rotated.secret))
          // Read with another secret: a storage failure, never another secret.
          const elsewhere = yield* Effect.provide(
            PgWebhookRepository.make,
            PrivateKeyCipher.layer(Redacted.make("another operator's secret"))
          )
          expect(Exit.isFailure(yield* Effect.exit(elsewhere.find(projectId, created.id)))).toBe(true)
        }).pipe(Effect.provide(store(client))),
      120_000
    )
  }

  for (const [name, client] of bothServers) {
    it.effect(
      `on ${name}: a claimed delivery whose secret another key sealed gives its lane back; the others are claimed`,
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const domains = yield* CustomDomainRepository
          const deliveries = yield* WebhookDeliveryRepository
          const {
            domains: [mine],
            project
          } = yield* projectWith(["subdomain"])
          const {
            domains: [theirs],
            project: other
          } = yield* projectWith(["subdomain"])
          if (mine === undefined || theirs === undefined) return yield* Effect.die(new Error("no domains"))
          const unreadable = yield* storeWebhook(project.id, new Date())
          const readable = yield* storeWebhook(other.id, new Date())
          yield* domains.insert(mine, ContractFixtures.roomyLimits)
          yield* domains.insert(theirs, ContractFixtures.roomyLimits)
          // Sealed by an operator with another secret: this store cannot open it.
          const foreign = yield* Effect.flatMap(
            Effect.orDie(PrivateKeyCipher.make(Redacted.make("another operator's secret"))),
            (cipher) => cipher.encrypt(Redacted.make(readable.secret), `webhook secret ${unreadable.id}`)
          )
          yield* sql`update webhooks set secret = ${foreign} where id = ${unreadable.id}`
          const now = new Date(Date.now() + 60_000)
          const lease = { holder: "unreadable-test", until: new Date(now.getTime() + 3_600_000) }
          const claimed = yield* deliveries.claimDue(now, 100, lease)
          const mineOrTheirs = claimed.filter(({ delivery }) =>
            [unreadable.id, readable.id].includes(delivery.webhookId)
          )
          expect(mineOrTheirs.map(({ delivery }) => delivery.webhookId)).toEqual([readable.id])
          const lanes = yield* sql<{ readonly id: string; readonly holder: string | null }>`
            select id, lane_holder as holder from webhooks where id in (${unreadable.id}, ${readable.id})
            order by id = ${readable.id}`
          expect(lanes).toEqual([
            { id: unreadable.id, holder: null },
            { id: readable.id, holder: "unreadable-test" }
          ])
        }).pipe(Effect.provide(fullStore(client))),
      120_000
    )
  }

  it.live(
    "on embedded PGlite: no file of the data directory holds a secret once the database is closed",
    () =>
      Effect.gen(function* () {
        const dataDirectory = yield* temporaryDirectory
        const secrets = yield* Effect.gen(function* () {
          const webhooks = yield* WebhookRepository
          const projectId = yield* withProject
          const made: Array<string> = []
          for (let n = 0; n < 5; n++) {
            const webhook = yield* webhooks.insert(
              { projectId, url: `https://hooks.example.com/${n}`, events: null },
              new Date(),
              10
            )
            const rotated = Option.getOrThrow(yield* webhooks.rotateSecret(projectId, webhook.id, new Date()))
            made.push(webhook.secret, rotated.secret)
          }
          return made
        }).pipe(Effect.provide(store(EmbeddedPostgres.clientLayer({ dataDirectory }))), Effect.scoped)
        const files = yield* Effect.promise(() =>
          readdir(dataDirectory, { recursive: true, withFileTypes: true })
        )
        const contents = yield* Effect.forEach(
          files.filter((entry) => entry.isFile()),
          (entry) => Effect.promise(() => readFile(join(entry.parentPath, entry.name)))
        )
        expect(contents.length).toBeGreaterThan(10)
        for (const secret of secrets) {
          for (const spelling of spellingsOf(secret)) {
            expect(contents.some((content) => content.includes(spelling))).toBe(false)
          }
        }
      }),
    120_000
  )
})
