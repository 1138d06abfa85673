/**
 * The number of rows a caller asks for, and keyset paging: a page reads one row more than it holds,
 * to know whether more follow, and the next page starts after the key of the last row it holds.
 */
import { Array as Arr, Option } from "effect"

/** A limit as a whole number of rows, none when below one. */
export const rowLimit = (limit: number): number => Math.max(0, Math.floor(limit))

/** The first `size` of `found` (read with one more), and the key the next page starts after when more follow. */
export const keysetPage = <A, K>(found: ReadonlyArray<A>, size: number, keyOf: (row: A) => K) => {
  const rows = found.slice(0, size)
  return { rows, nextAfter: found.length > size ? Option.map(Arr.last(rows), keyOf) : Option.none<K>() }
}
