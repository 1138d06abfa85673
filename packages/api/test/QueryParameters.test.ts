/**
 * Query parameters decode from canonical decimal text only, and any failure reads as the plain rule.
 */
import { describe, expect, it } from "@effect/vitest"
import { ListLimit, PetStatus } from "@petstore/catalogue"
import { DomainEventId } from "@petstore/events"
import { Result, Schema, SchemaIssue } from "effect"
import { integerParameter, literalParameter, textParameter } from "../src/QueryParameters.js"

const limit = integerParameter(ListLimit, "must be an integer from 1 to 100")
const status = literalParameter(PetStatus, "must be one of available, pending, sold")
const eventId = textParameter(DomainEventId, "must be an event id")

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const message = <S extends Schema.Codec<unknown, unknown>>(schema: S, input: unknown) =>
  Result.match(Schema.decodeUnknownResult(schema)(input), {
    onFailure: (error) => formatIssues(error.issue).issues[0]?.message,
    onSuccess: () => undefined
  })

describe("integer query parameters", () => {
  it.each(["1", "20", "100"])("accepts %s", (text) => {
    expect(Schema.decodeUnknownSync(limit)(text)).toBe(Number(text))
  })

  it.each(["0", "101", "abc", "1.5", "-1", "", " 5", "5 ", "01", "1e2", "+5", "0x10"])(
    "refuses %j with the rule",
    (text) => {
      expect(message(limit, text)).toBe("must be an integer from 1 to 100")
    }
  )

  it("refuses a repeated parameter with the rule", () => {
    expect(message(limit, ["5", "6"])).toBe("must be an integer from 1 to 100")
  })

  it("encodes back to decimal text", () => {
    expect(Schema.encodeSync(limit)(ListLimit.make(42))).toBe("42")
  })
})

describe("word query parameters", () => {
  it.each(["available", "pending", "sold"])("accepts %s", (text) => {
    expect(Schema.decodeUnknownSync(status)(text)).toBe(text)
  })

  it.each(["lost", "Available", "", ["sold", "sold"]])("refuses %j with the rule", (input) => {
    expect(message(status, input)).toBe("must be one of available, pending, sold")
  })
})

describe("text query parameters", () => {
  it.each(["1", "42", "9223372036854775807"])("accepts %s", (text) => {
    expect(Schema.decodeUnknownSync(eventId)(text)).toBe(text)
  })

  it.each(["0", "01", "-1", "1.5", "abc", "", " 1", "1e3", "12345678901234567890", ["1", "2"]])(
    "refuses %j with the rule",
    (input) => {
      expect(message(eventId, input)).toBe("must be an event id")
    }
  )
})
