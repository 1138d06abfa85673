/**
 * Rows named by their keys in memory: the text of a key, to look rows up in a `Map`, and the last of
 * a round's results for each row (should a round carry two, the last is the one stored).
 */

/**
 * The text that names a row by its key's parts. None of the parts keys are made of here (ids,
 * hostnames, account names, apexes) has a line break, so parts joined by one name one row alone.
 */
export const keyText = (...parts: ReadonlyArray<string>): string => parts.join("\n")

/** The last of `items` for each key, in the order the keys first came. */
export const lastPerKey = <A>(items: ReadonlyArray<A>, keyOf: (item: A) => string): Array<A> => [
  ...new Map(items.map((item) => [keyOf(item), item])).values()
]
