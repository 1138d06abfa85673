/**
 * Port: the ownership tokens (one per account and name, made once and kept) and the record of who
 * let a verified hostname go and when, which keeps it contested for 30 days (see `Ownership`).
 */

import type { OwnershipToken } from "@petstore/domains"
import type { AccountName, StorageError } from "@petstore/kernel"
import type { Effect } from "effect"
import { Context } from "effect"
import type { HostnameRelease } from "./Ownership.js"

export class OwnershipRepository extends Context.Service<
  OwnershipRepository,
  {
    /**
     * The account's token for `name`: the stored one, or 128 bits from a cryptographically secure
     * source, stored at once. Two concurrent calls get the same token.
     */
    readonly tokenFor: (account: AccountName, name: string) => Effect.Effect<OwnershipToken, StorageError>
    /** `account` let its verified `hostname` go at `at` (the latest time per account is kept). */
    readonly recordRelease: (
      account: AccountName,
      hostname: string,
      at: Date
    ) => Effect.Effect<void, StorageError>
    /** Every account's latest release of each of `hostnames` after `since`. */
    readonly releasesSince: (
      hostnames: ReadonlyArray<string>,
      since: Date
    ) => Effect.Effect<ReadonlyArray<HostnameRelease>, StorageError>
  }
>()("@petstore/ownership/OwnershipRepository") {}
