/**
 * Port: DNS lookups. Every answer is a value (records, none, or failure): a resolver never fails, so
 * that the rules can tell "nothing there" from "could not ask".
 */
import type { Effect } from "effect"
import { Context } from "effect"
import type { CaaRecord, DnsAnswer } from "./DnsAnswer.js"

export class DnsResolver extends Context.Service<
  DnsResolver,
  {
    /** The CNAME target of `name`, lower case, without the trailing dot. */
    readonly cname: (name: string) => Effect.Effect<DnsAnswer<string>>
    /** The A and AAAA addresses of `name` (following CNAMEs, as a resolver does), deduplicated. */
    readonly addresses: (name: string) => Effect.Effect<DnsAnswer<string>>
    /** The TXT records at `name`, each record's strings joined as one value. */
    readonly txt: (name: string) => Effect.Effect<DnsAnswer<string>>
    /** The CAA records at `name` exactly (no climbing: the CAA rule climbs itself). */
    readonly caa: (name: string) => Effect.Effect<DnsAnswer<CaaRecord>>
  }
>()("@petstore/domains/DnsResolver") {}
