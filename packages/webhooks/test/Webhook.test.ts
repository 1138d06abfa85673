/**
 * A webhook's id and secret as every store spells them from its random bytes, and what its owner is
 * shown of it: the secret once, at creation, and never again.
 */

import { ProjectId } from "@petstore/projects"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  CreatedWebhookResource,
  createdWebhookResource,
  Webhook,
  WebhookId,
  WebhookResource,
  WebhookSecret,
  webhookIdFrom,
  webhookResource,
  webhookSecretFrom
} from "../src/index.js"

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill)
const isWebhookId = Schema.is(WebhookId)
const isWebhookSecret = Schema.is(WebhookSecret)

describe("webhookIdFrom", () => {
  it("spells 17 random bytes as wh_ and 26 lower-case base32 characters (RFC 4648)", () => {
    expect(webhookIdFrom(bytes(17, 0))).toBe(`wh_${"a".repeat(26)}`)
    expect(webhookIdFrom(bytes(17, 0xff))).toBe(`wh_${"7".repeat(26)}`)
    // RFC 4648's test vector: "foobar" is MZXW6YTBOI.
    const foobar = new Uint8Array(17)
    foobar.set(new TextEncoder().encode("foobar"))
    expect(webhookIdFrom(foobar)).toBe(`wh_mzxw6ytboi${"a".repeat(16)}`)
  })

  it("uses no more than the first 130 bits", () => {
    const longer = new Uint8Array(32).fill(0xff, 17)
    expect(webhookIdFrom(longer)).toBe(webhookIdFrom(bytes(17, 0)))
  })
})

describe("WebhookId", () => {
  it.each([`wh_${"a".repeat(26)}`, "wh_abcdefghijklmnopqrstuvwxyz", "wh_234567234567234567234567ab"])(
    "accepts %s",
    (text) => expect(isWebhookId(text)).toBe(true)
  )

  it.each([
    "",
    `wh_${"a".repeat(25)}`,
    `wh_${"a".repeat(27)}`,
    `WH_${"a".repeat(26)}`,
    `wh_${"A".repeat(26)}`,
    `wh_${"0".repeat(26)}`,
    `wh_${"8".repeat(26)}`,
    `whk_${"a".repeat(26)}`,
    `${"a".repeat(26)}`
  ])("refuses %j", (text) => expect(isWebhookId(text)).toBe(false))
})

describe("webhookSecretFrom, WebhookSecret", () => {
  it("spells 32 random bytes as whsec_ and their base64", () => {
    expect(webhookSecretFrom(bytes(32, 0))).toBe(`whsec_${"A".repeat(43)}=`)
    expect(webhookSecretFrom(bytes(32, 0xfb))).toBe(`whsec_${"+/v7".repeat(10)}+/s=`)
    expect(isWebhookSecret(webhookSecretFrom(bytes(32, 0x5a)))).toBe(true)
  })

  it.each([
    "",
    "whsec_",
    `whsec_${"A".repeat(44)}`,
    `whsec_${"A".repeat(42)}==`,
    `secret_${"A".repeat(43)}=`
  ])("refuses %j", (text) => expect(isWebhookSecret(text)).toBe(false))
})

describe("webhookResource, createdWebhookResource", () => {
  const webhook = new Webhook({
    id: webhookIdFrom(bytes(17, 1)),
    projectId: ProjectId.make("handbook"),
    url: "https://hooks.example.com/petstore",
    events: ["domain.verified", "certificate.issued"],
    status: "enabled",
    disabledAt: null,
    disabledReason: null,
    secret: webhookSecretFrom(bytes(32, 2)),
    previousSecret: null,
    previousSecretUntil: null,
    failingSince: null,
    createdAt: new Date("2027-03-01T12:00:00.000Z")
  })

  it("shows the owner the webhook without its secret or project", () => {
    const shown = Schema.encodeSync(WebhookResource)(webhookResource(webhook))
    expect(shown).toStrictEqual({
      id: webhook.id,
      url: "https://hooks.example.com/petstore",
      events: ["domain.verified", "certificate.issued"],
      status: "enabled",
      disabledAt: null,
      disabledReason: null,
      createdAt: "2027-03-01T12:00:00.000Z"
    })
  })

  it("shows the secret in the answer to its creation", () => {
    const shown = Schema.encodeSync(CreatedWebhookResource)(createdWebhookResource(webhook))
    expect(shown).toStrictEqual({
      id: webhook.id,
      url: "https://hooks.example.com/petstore",
      events: ["domain.verified", "certificate.issued"],
      status: "enabled",
      disabledAt: null,
      disabledReason: null,
      createdAt: "2027-03-01T12:00:00.000Z",
      secret: webhook.secret
    })
  })

  it("refuses a webhook record with an unknown event type", () => {
    expect(() =>
      Schema.decodeUnknownSync(Webhook)({
        ...Schema.encodeSync(Webhook)(webhook),
        events: ["domain.exploded"]
      })
    ).toThrow()
  })
})
