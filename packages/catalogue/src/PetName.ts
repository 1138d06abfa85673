/**
 * The name of an animal: 1 to 200 characters, not blank, no control characters. It is stored and
 * returned exactly as sent (no trimming, no normalisation).
 */
import { Schema } from "effect"

export const petNameMaxLength = 200

// C0 controls, DEL and C1 controls: invisible in listings and dangerous in logs.
const controlCharacter = /\p{Cc}/u

// A UTF-16 surrogate without its pair is no character at all: UTF-8 (and so PostgreSQL) cannot hold
// it, and storing U+FFFD instead would return a name other than the one sent.
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Length in characters (Unicode code points), as a person counts them, not UTF-16 units. */
export const characterLength = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

export const petNameProblem = (name: string): string | undefined => {
  const length = characterLength(name)
  if (length < 1 || length > petNameMaxLength) return `must be 1 to ${petNameMaxLength} characters`
  if (name.trim().length === 0) return "must not be blank"
  if (controlCharacter.test(name)) return "must not contain control characters"
  if (loneSurrogate.test(name)) return "must be valid Unicode (a lone surrogate is not a character)"
  return undefined
}

export const PetName = Schema.String.annotate({ message: "must be a string" }).pipe(
  // The filter fails with the rule `petNameProblem` names.
  Schema.check(
    Schema.makeFilter((name: string) => petNameProblem(name), {
      toJsonSchema: () => ({ minLength: 1, maxLength: petNameMaxLength }),
      arbitraryConstraint: { minLength: 1, maxCodePoints: petNameMaxLength }
    })
  ),
  Schema.brand("PetName"),
  Schema.annotate({
    identifier: "PetName",
    description: "The animal's name: 1 to 200 characters, not blank, no control characters."
  })
)
export type PetName = typeof PetName.Type
