/**
 * A request for one page of animals, and the page that answers it (keyset paging on ascending id).
 */
import type { Option } from "effect"
import type { ListLimit } from "./ListLimit.js"
import type { Pet } from "./Pet.js"
import type { PetId } from "./PetId.js"
import type { PetStatus } from "./PetStatus.js"

export interface PetQuery {
  readonly limit: ListLimit
  readonly status: Option.Option<PetStatus>
  /** Only animals whose id is greater than this one: the cursor of the previous page. */
  readonly after: Option.Option<PetId>
}

export interface PetPage {
  readonly pets: ReadonlyArray<Pet>
  /** The cursor of the next page, present only when more animals match. */
  readonly nextAfter: Option.Option<PetId>
}
