/**
 * Plans of a documentation project. Custom domains need a paid plan: "Pro or above".
 */
import { Schema } from "effect"

export const Plan = Schema.Literals(["free", "pro", "enterprise"]).annotate({
  identifier: "Plan",
  message: "must be one of free, pro, enterprise"
})
export type Plan = typeof Plan.Type

export const isPaidPlan = (plan: Plan): boolean => plan !== "free"
