/**
 * Decoders for the text of query and path parameters. A parameter that appears twice arrives as an
 * array and is refused like any other malformed value: no value is picked silently.
 *
 * A parameter is text on the wire, but the OpenAPI document describes its value: clients generated
 * from it should see an integer and its range, not a string. `HttpApi` documents the wire text, so
 * `describeParameters` puts the value's schema back, taken from the same schemas that decode them.
 */
import { Effect, Schema, SchemaGetter, SchemaIssue } from "effect"

/** Canonical decimal digits only: no sign, no exponent, no leading zeros, no spaces. */
const canonicalDecimal = /^(0|[1-9][0-9]{0,19})$/

export const DecimalInteger = Schema.String.pipe(
  Schema.decodeTo(Schema.Number, {
    decode: SchemaGetter.transformEffect((text: string, options) =>
      canonicalDecimal.test(text)
        ? Effect.succeed(Number(text))
        : Effect.fail(new SchemaIssue.InvalidValue({ message: "must be an integer" }, text, options))
    ),
    encode: SchemaGetter.transform((n: number) => String(n))
  })
)

/**
 * A parameter's wire schema carries no identifier: it would become a component of the OpenAPI
 * document under the value's name (`ListLimit`), next to the value's own.
 */
const anonymous = { identifier: undefined }

/** A query parameter holding an integer that `target` then constrains; any failure reads as `rule`. */
export const integerParameter = <S extends Schema.Codec<unknown, number>>(target: S, rule: string) => {
  const decodeValue = Schema.decodeUnknownEffect(target)
  const encodeValue = Schema.encodeSync(target)
  return Schema.String.annotate({ message: rule }).pipe(
    Schema.decodeTo(Schema.toType(target), {
      decode: SchemaGetter.transformEffect((text: string, options) => {
        const refused = new SchemaIssue.InvalidValue({ message: rule }, text, options)
        return canonicalDecimal.test(text)
          ? Effect.mapError(decodeValue(Number(text)), () => refused)
          : Effect.fail(refused)
      }),
      encode: SchemaGetter.transform((value: S["Type"]) => String(encodeValue(value)))
    }),
    Schema.annotate(anonymous)
  )
}

/** A query parameter holding one of a set of words; any failure reads as `rule`. */
export const literalParameter = <S extends Schema.Codec<string, string>>(
  target: S,
  rule: string
): S["Rebuild"] => target.annotate({ ...anonymous, message: rule })

/**
 * A query parameter holding text that `target` constrains (an id's pattern, say); any failure, a
 * repeated parameter's included, reads as `rule`.
 */
export const textParameter = <S extends Schema.Codec<unknown, string>>(target: S, rule: string) => {
  const decodeValue = Schema.decodeUnknownEffect(target)
  const encodeValue = Schema.encodeSync(target)
  return Schema.String.annotate({ message: rule }).pipe(
    Schema.decodeTo(Schema.toType(target), {
      decode: SchemaGetter.transformEffect((text: string, options) =>
        Effect.mapError(
          decodeValue(text),
          () => new SchemaIssue.InvalidValue({ message: rule }, text, options)
        )
      ),
      encode: SchemaGetter.transform((value: S["Type"]) => String(encodeValue(value)))
    }),
    Schema.annotate(anonymous)
  )
}

/** How one parameter is documented: the schema of its value and what it is for. */
export interface ParameterDescription {
  readonly value: Schema.Top
  readonly description?: string
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The values `schema` accepts as JSON Schema, inline: a parameter's schema has no `$defs` to point into. */
const valueJsonSchema = (schema: Schema.Top): Json => {
  const document = Schema.toJsonSchemaDocument(Schema.toType(schema))
  const reference = document.schema.$ref
  const name = typeof reference === "string" ? reference.replace(/^#\/\$defs\//, "") : undefined
  const definition = name === undefined ? undefined : document.definitions[name]
  return isObject(definition) ? definition : document.schema
}

/**
 * An OpenAPI transform of one operation: the named parameters get their value's schema and their
 * description. Parameters it does not name keep what `HttpApi` generated.
 */
export const describeParameters = (parameters: Readonly<Record<string, ParameterDescription>>) => {
  const described = Object.entries(parameters).map(([name, { description, value }]) => {
    const schema = valueJsonSchema(value)
    const text = description ?? (typeof schema.description === "string" ? schema.description : undefined)
    return [
      name,
      text === undefined ? { schema } : { schema: { ...schema, description: text }, text }
    ] as const
  })
  const byName = new Map<string, { readonly schema: Json; readonly text?: string }>(described)
  return (operation: Record<string, unknown>): Record<string, unknown> => {
    if (!Array.isArray(operation.parameters)) return operation
    for (const parameter of operation.parameters) {
      if (!isObject(parameter) || typeof parameter.name !== "string") continue
      const found = byName.get(parameter.name)
      if (found === undefined) continue
      parameter.schema = structuredClone(found.schema)
      if (found.text !== undefined) parameter.description = found.text
    }
    return operation
  }
}
