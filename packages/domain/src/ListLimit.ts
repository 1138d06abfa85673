/**
 * How many animals one page of `GET /pets` may hold.
 */
import { Schema } from "effect"

export const listLimitMin = 1
export const listLimitMax = 100
export const listLimitDefault = 20

const rule = `must be an integer from ${listLimitMin} to ${listLimitMax}`

export const ListLimit = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= listLimitMin && n <= listLimitMax, {
    message: () => ({ message: rule, override: true })
  }),
  Schema.brand("ListLimit")
).annotations({
  identifier: "ListLimit",
  description: `Maximum number of animals returned (${listLimitMin} to ${listLimitMax}, default ${listLimitDefault}).`,
  message: () => ({ message: rule, override: true }),
  jsonSchema: { type: "integer", minimum: listLimitMin, maximum: listLimitMax, default: listLimitDefault }
})
export type ListLimit = typeof ListLimit.Type

export const defaultListLimit = ListLimit.make(listLimitDefault)
