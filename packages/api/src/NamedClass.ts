/**
 * A `Schema.Class` whose wire form carries the class's name and description. The OpenAPI document
 * names and describes a class by its wire form, which would otherwise be anonymous: `HttpApi` would
 * call the component `ProjectEncoded`.
 */
import { Schema } from "effect"

export const NamedClass =
  <Self>(identifier: string) =>
  <const Fields extends Schema.Struct.Fields>(
    fields: Fields,
    annotations: Schema.Annotations.Declaration<Self, readonly [Schema.Struct<Fields>]> = {}
  ) =>
    Schema.Class<Self>(identifier)(
      Schema.Struct(fields).annotate(
        annotations.description === undefined
          ? { identifier }
          : { identifier, description: annotations.description }
      ),
      annotations
    )
