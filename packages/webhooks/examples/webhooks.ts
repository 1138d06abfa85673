/**
 * Webhooks as pure rules: which URLs a webhook may have, which addresses a delivery may connect to,
 * when a failed delivery is tried again, and what one attempt makes of a delivery.
 */

import { Hostname } from "@petstore/domains"
import { DomainEventId } from "@petstore/events"
import {
  classifyAddress,
  nextWebhookAttemptAt,
  recordOutcome,
  validateWebhookUrl,
  WebhookDelivery,
  webhookIdFrom,
  webhookRetryDelay
} from "@petstore/webhooks"
import { Duration, Option, Result } from "effect"

for (const url of [
  "https://Hooks.Example.com/petstore",
  "http://hooks.example.com/petstore",
  "https://user:secret@hooks.example.com/",
  "https://169.254.169.254/latest/meta-data/",
  "https://[::ffff:10.0.0.1]/"
]) {
  const checked = validateWebhookUrl(url, { allowPrivate: false })
  console.log(Result.isSuccess(checked) ? `ok ${checked.success.href}` : `url: ${checked.failure}`)
}
// The operator's PETSTORE_WEBHOOK_ALLOW_PRIVATE (tests, private deployments) lifts both rules.
console.log(Result.isSuccess(validateWebhookUrl("http://127.0.0.1:3000/hook", { allowPrivate: true })))

// What the sender checks every address a name resolves to against, at each delivery.
console.log(["93.184.216.34", "10.1.2.3", "fd00::1", "::ffff:127.0.0.1"].map(classifyAddress))

// Waits after attempts 1 to 4 with the default base of 5 seconds and no jitter drawn (0.5), then one
// capped at the hour, and the least a draw can make of it.
const base = Duration.seconds(5)
console.log([1, 2, 3, 4, 12].map((attempt) => Duration.format(webhookRetryDelay(base, attempt, 0.5))))
console.log(Duration.format(webhookRetryDelay(base, 12, 0)))

const first = new Date("2027-03-01T12:00:00.000Z")
const late = new Date("2027-03-02T11:30:00.000Z")
console.log(
  Option.isNone(
    nextWebhookAttemptAt({ base, attempt: 30, attemptedAt: late, firstAttemptAt: first, random: 0.5 })
  )
)

const delivery = new WebhookDelivery({
  webhookId: webhookIdFrom(new Uint8Array(17)),
  eventId: DomainEventId.make("42"),
  hostname: Hostname.make("docs.example.com"),
  attempts: 0,
  firstAttemptAt: null,
  nextAttemptAt: first,
  status: "pending"
})
const rules = { base, random: 0.5, failingSince: null, disableAfter: "72 hours" } as const
const rejected = recordOutcome(delivery, { _tag: "Rejected", status: 503 }, first, rules)
console.log(rejected.attempt.status, rejected.attempt.error, rejected.delivery.nextAttemptAt.toISOString())
const delivered = recordOutcome(
  rejected.delivery,
  { _tag: "Delivered", status: 204 },
  rejected.delivery.nextAttemptAt,
  rules
)
console.log(delivered.delivery.status, delivered.delivery.attempts, delivered.attempt.httpStatus)

// Output:
// ok https://hooks.example.com/petstore
// url: must use https
// url: must not contain a user name or password
// url: must not be a link-local address (169.254.169.254)
// url: must not be a private address (::ffff:a00:1)
// true
// [ 'public', 'private', 'unique-local', 'loopback' ]
// [ '5s', '10s', '20s', '40s', '1h' ]
// 48m
// true
// retrying http_503 2027-03-01T12:00:05.000Z
// delivered 2 204
