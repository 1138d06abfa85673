/**
 * DNS names, each rule once: how text becomes a name as DNS compares it (trimmed, lower case, no
 * trailing dot, an internationalised name in its ASCII form), the syntax of the names the platform
 * serves (labels of letters, digits and inner hyphens, 1 to 63 octets, at most 253 octets in all:
 * RFC 1035 §2.3.4, RFC 1123 §2.1), whether a name is at or under another, and what the Public Suffix
 * List says of it (`tldts`). Read it as a namespace: `DnsName.normalise`, the schema `DnsName.DnsName`.
 */
import { Option, Schema, SchemaTransformation } from "effect"
import { parse } from "tldts"

const maxLength = 253

const maxLabelLength = 63

const ldhLabel = `[a-z0-9](?:[a-z0-9-]{0,${maxLabelLength - 2}}[a-z0-9])?`

/** One label: lower-case letters, digits and inner hyphens, 1 to 63 of them. */
export const ldhLabelPattern = new RegExp(`^${ldhLabel}$`)

/**
 * A whole name of such labels, at most 253 octets, as one pattern: what a JSON Schema can state of a
 * name (the rules below say which one a name breaks, which a pattern cannot).
 */
export const namePattern = (options: { readonly minLabels: 1 | 2 }): RegExp =>
  new RegExp(
    `^(?=.{1,${maxLength}}$)(${ldhLabel})(\\.${ldhLabel})${options.minLabels === 1 ? "*" : "+"}$`,
    "u"
  )

export const labelsOf = (name: string): ReadonlyArray<string> => name.split(".")

/** A rule of names: whether a name follows it, and the words the API refuses a name that does not with. */
export interface Rule {
  readonly holds: (name: string) => boolean
  readonly message: string
}

export const lengthRule: Rule = {
  holds: (name) => name.length <= maxLength,
  message: `must be at most ${maxLength} characters`
}

// The two label rules read every name the service decodes (rows, DNS answers, requests), several per
// domain: they walk the name once instead of splitting it into labels.

export const labelLengthRule: Rule = {
  holds: (name) => {
    for (let start = 0; ; ) {
      const dot = name.indexOf(".", start)
      const length = (dot === -1 ? name.length : dot) - start
      if (length < 1 || length > maxLabelLength) return false
      if (dot === -1) return true
      start = dot + 1
    }
  },
  message: `must have labels of 1 to ${maxLabelLength} characters`
}

/** Every label `ldhLabelPattern`, as one pattern. */
const ldhLabelsPattern = new RegExp(`^${ldhLabel}(?:\\.${ldhLabel})*$`)

export const ldhRule: Rule = {
  holds: (name) => ldhLabelsPattern.test(name),
  message: "must have labels of letters, digits and inner hyphens only"
}

/** The first of `rules` that `name` breaks, if any. */
export const brokenRule = (name: string, rules: ReadonlyArray<Rule>): Option.Option<Rule> =>
  Option.fromUndefinedOr(rules.find((rule) => !rule.holds(name)))

const asCheck = (rule: Rule) => Schema.makeFilter((name: string) => rule.holds(name) || rule.message)

/**
 * A normalised name the platform can serve: ASCII (punycode), lower case, no trailing dot, one label
 * or more, each rule above kept. Its checks state nothing in a JSON Schema, so that a schema built on
 * it (`Hostname`) states its own `namePattern` alone.
 */
export const DnsName = Schema.String.pipe(
  Schema.check(asCheck(lengthRule), asCheck(labelLengthRule), asCheck(ldhRule)),
  Schema.brand("DnsName")
)
export type DnsName = typeof DnsName.Type

const withoutTrailingDot = (name: string): string => (name.endsWith(".") ? name.slice(0, -1) : name)

/**
 * `text` as DNS compares names: trimmed, lower case (RFC 4343), without the trailing dot that names
 * the root. Nothing is checked: configuration and DNS answers are taken as they are.
 */
export const normalise = (text: string): string => withoutTrailingDot(text.trim().toLowerCase())

/** Decodes a name to its {@link normalise}d form, for the Schemas at the boundaries that read names. */
export const normalising = SchemaTransformation.transform<string, string>({
  decode: normalise,
  encode: (name) => name
})

/** Spaces and the characters of URLs: text with one is a URL or words, whatever a URL parser makes of it. */
const notInNames = /[\s/\\:@?#%[\]]/

const urlHostname = Option.liftThrowable((text: string) => new URL(`http://${text}`).hostname)

/**
 * `text` trimmed, lower case, an internationalised name in punycode (`bücher.de` → `xn--bcher-kva.de`)
 * by the WHATWG URL algorithm every runtime has, without the trailing dot; none when the text cannot
 * be a name (URL syntax, invalid punycode). The result is not checked against the rules.
 */
export const toAscii = (text: string): Option.Option<string> => {
  const trimmed = text.trim()
  if (trimmed === "" || notInNames.test(trimmed)) return Option.none()
  return Option.map(urlHostname(trimmed), withoutTrailingDot)
}

const nonAscii = /[\u0080-\uffff]/

/**
 * The name a Host header or a TLS server name asks for: without its port, normalised, and an
 * internationalised name in punycode ("" when it cannot be one, see {@link toAscii}). ASCII is only
 * normalised, not parsed (the edge asks this at every request), so the result may break the rules:
 * nothing is stored under such a name, so it is served nowhere.
 */
export const fromHost = (host: string): string => {
  const name = normalise(host.trim().replace(/:\d+$/, ""))
  return nonAscii.test(name) ? Option.getOrElse(toAscii(name), () => "") : name
}

/** Whether two names are the same once {@link normalise}d. */
export const equals = (a: string, b: string): boolean => normalise(a) === normalise(b)

/** Whether `name` is `zone` or under it (`docs.example.com` is under `example.com`; `myexample.com` is not). */
export const isAtOrUnder = (name: string, zone: string): boolean => name === zone || name.endsWith(`.${zone}`)

/** What `name` adds below `zone` (`p1` for `p1.docs.example.net` in `docs.example.net`); none unless under it. */
export const relativeTo = (name: string, zone: string): Option.Option<string> =>
  name.endsWith(`.${zone}`) ? Option.some(name.slice(0, -(zone.length + 1))) : Option.none()

/**
 * `name`, then each name above it, up to the root but not the root: `a.example.com`, `example.com`,
 * `com`. Empty labels are skipped.
 */
export const towardsRoot = (name: string): ReadonlyArray<string> => {
  const labels = labelsOf(name).filter((label) => label.length > 0)
  return labels.map((_, index) => labels.slice(index).join("."))
}

/**
 * The registrable domain `name` belongs to by the Public Suffix List (`example.co.uk` for
 * `docs.example.co.uk`; a top-level domain the List does not know counts as a suffix); none for an
 * address or a public suffix itself.
 */
export const registrableDomain = (name: string): Option.Option<string> =>
  Option.fromNullishOr(parse(name).domain)

/**
 * Whether `name` is under a public suffix of the List's ICANN section (`.com`, `.co.uk`), as the
 * names a registrar sells are. A top-level domain the List does not know (`.test`) is none; a private
 * suffix (`github.io`) is not one, so the name counts as under its ICANN parent (`.io`).
 */
export const isUnderIcannSuffix = (name: string): boolean => {
  const parsed = parse(name)
  return parsed.domain !== null && parsed.isIcann === true
}
