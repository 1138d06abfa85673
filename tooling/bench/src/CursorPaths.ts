/**
 * The cursor scenario's URLs: collected by following the product's own `Link rel=next` headers from
 * the first page, so the load walks real keyset pages exactly as a client would.
 */
import { request } from "node:http"

const getLink = (baseUrl: string, path: string, key: string): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.resume()
      response.once("end", () => {
        if (response.statusCode !== 200) return reject(new Error(`GET ${path}: ${response.statusCode}`))
        const link = response.headers.link
        resolve(typeof link === "string" ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined)
      })
    })
    req.once("error", reject)
    req.end()
  })

/** Up to `pages` next-page paths, starting after the first page of `firstPath`. */
export const collectCursorPaths = async (
  baseUrl: string,
  key: string,
  firstPath: string,
  pages: number
): Promise<Array<string>> => {
  const paths: Array<string> = []
  let next = await getLink(baseUrl, firstPath, key)
  while (next !== undefined && paths.length < pages) {
    paths.push(next)
    next = await getLink(baseUrl, next, key)
  }
  if (paths.length === 0) throw new Error(`GET ${firstPath} has no Link rel=next: is the database seeded?`)
  return paths
}
