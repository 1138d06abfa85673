/**
 * How many animals one page of `GET /pets` may hold.
 */
import { Schema } from "effect"

export const listLimitMin = 1
export const listLimitMax = 100
export const listLimitDefault = 20

const rule = `must be an integer from ${listLimitMin} to ${listLimitMax}`

// The integer check aborts: a value breaking both checks (0.5) gets the rule once.
export const ListLimit = Schema.Number.annotate({ message: rule }).pipe(
  Schema.check(
    Schema.isInt({ message: rule }).abort(),
    Schema.isBetween(
      { minimum: listLimitMin, maximum: listLimitMax },
      {
        message: rule,
        toJsonSchema: () => ({ minimum: listLimitMin, maximum: listLimitMax, default: listLimitDefault })
      }
    )
  ),
  Schema.brand("ListLimit"),
  Schema.annotate({
    identifier: "ListLimit",
    description: `Maximum number of animals returned (${listLimitMin} to ${listLimitMax}, default ${listLimitDefault}).`
  })
)
export type ListLimit = typeof ListLimit.Type

export const defaultListLimit = ListLimit.make(listLimitDefault)
