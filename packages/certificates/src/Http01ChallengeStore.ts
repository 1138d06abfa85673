/**
 * Port: where HTTP-01 key authorizations are published while a CA validates them (RFC 8555 section
 * 8.3). The certificate issuer puts them; the serving edge answers
 * `GET /.well-known/acme-challenge/<token>` from them. A store shared by every process (the worker
 * orders, the edge answers), so it lives with the other repositories.
 */

import type { StorageError } from "@petstore/kernel"
import type { Effect, Option } from "effect"
import { Context } from "effect"

export class Http01ChallengeStore extends Context.Service<
  Http01ChallengeStore,
  {
    readonly put: (token: string, keyAuthorization: string) => Effect.Effect<void, StorageError>
    readonly remove: (token: string) => Effect.Effect<void, StorageError>
    /** The key authorization to answer for `token`, if one is published. */
    readonly find: (token: string) => Effect.Effect<Option.Option<string>, StorageError>
  }
>()("@petstore/certificates/Http01ChallengeStore") {}
