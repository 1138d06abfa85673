/**
 * How deeply a JSON text nests its arrays and objects, found by scanning the text, before it is
 * parsed: a body over the limit is refused without building the structure it describes.
 */

const quote = 0x22
const backslash = 0x5c
const openBracket = 0x5b
const closeBracket = 0x5d
const openBrace = 0x7b
const closeBrace = 0x7d

/**
 * Whether `text` opens more than `limit` arrays or objects inside one another. Brackets inside strings
 * do not count. Only the nesting is judged: text that is not JSON at all is the parser's to refuse.
 */
export const nestsDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === backslash) i++
      else if (char === quote) inString = false
    } else if (char === quote) {
      inString = true
    } else if (char === openBracket || char === openBrace) {
      if (++depth > limit) return true
    } else if (char === closeBracket || char === closeBrace) {
      depth--
    }
  }
  return false
}
