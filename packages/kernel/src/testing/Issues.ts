/**
 * The issues of a failed decode, one per broken rule, as an adapter shows them (`field: rule`): the
 * path of the field, the kind of failure, and its message. A missing field reads "is missing", as
 * Effect 3's `ArrayFormatter` said; every other message is the schema's own (its `message`
 * annotations), through Effect's Standard Schema formatter.
 */
import { Result, Schema, SchemaIssue } from "effect"

export interface Issue {
  /** `InvalidType` (wrong type or literal), `Filter` (a rule on the value), `MissingKey`, … */
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const messageOf = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => (issue._tag === "MissingKey" ? "is missing" : SchemaIssue.defaultLeafHook(issue))
})

const flatten = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): ReadonlyArray<Issue> => {
  switch (issue._tag) {
    case "Pointer":
      return flatten(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((inner) => flatten(inner, path))
    case "AnyOf":
      if (issue.issues.length > 0) return issue.issues.flatMap((inner) => flatten(inner, path))
      break
    case "Encoding":
      return flatten(issue.issue, path)
  }
  const messages = messageOf(issue).issues.map((found) => found.message)
  return [{ _tag: issue._tag, path, message: messages.join("; ") }]
}

/** Every issue of an issue tree, in order. */
export const flattenIssues = (issue: SchemaIssue.Issue): ReadonlyArray<Issue> => flatten(issue, [])

/** The issues of decoding `input`; fails the test when decoding succeeds. */
export const issuesOf = <S extends Schema.ConstraintDecoder<unknown>>(
  schema: S,
  input: unknown,
  options?: { readonly errors: "all" }
): ReadonlyArray<Issue> => {
  const result = Schema.decodeUnknownResult(schema)(input, options)
  if (Result.isSuccess(result)) throw new Error(`expected ${String(JSON.stringify(input))} to be refused`)
  return flattenIssues(result.failure.issue)
}

/** The issues without their kind: what the API shows for each field. */
export const rulesOf = <S extends Schema.ConstraintDecoder<unknown>>(
  schema: S,
  input: unknown,
  options?: { readonly errors: "all" }
): ReadonlyArray<Omit<Issue, "_tag">> =>
  issuesOf(schema, input, options).map(({ message, path }) => ({ path, message }))

/** Whether `error` is what a schema-backed constructor throws on invalid input. */
export const isSchemaRefusal = (error: unknown): boolean =>
  error instanceof Error && SchemaIssue.isIssue(error.cause)
