/**
 * Plans of a documentation project. Custom domains need a paid plan: "Pro or above".
 */
import { Schema } from "effect"

export const Plan = Schema.Literal("free", "pro", "enterprise").annotations({
  identifier: "Plan",
  message: () => ({ message: "must be one of free, pro, enterprise", override: true })
})
export type Plan = typeof Plan.Type

export const isPaidPlan = (plan: Plan): boolean => plan !== "free"
