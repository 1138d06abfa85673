/**
 * The cipher store-pg's tests encrypt with (certificates' keys, webhooks' secrets, the migrations
 * that encrypt what was stored before): a fixed test secret.
 */
import { Redacted } from "effect"
import { PrivateKeyCipher } from "../src/index.js"

export const testCipher = PrivateKeyCipher.layer(Redacted.make("test secret for store-pg's tests"))
