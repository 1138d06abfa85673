/**
 * Accounts own API keys (and, for custom domains, projects).
 */
import { Schema } from "effect"

export const AccountName = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^[a-z0-9][a-z0-9_-]{0,62}$/u, {
      message: "must be 1 to 63 lower-case letters, digits, '-' or '_', starting with a letter or digit"
    })
  ),
  Schema.brand("AccountName"),
  Schema.annotate({ identifier: "AccountName" })
)
export type AccountName = typeof AccountName.Type

/** The account that owns `PETSTORE_BOOTSTRAP_KEY`. */
export const defaultAccountName = AccountName.make("default")
