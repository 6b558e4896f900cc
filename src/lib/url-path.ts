/** RFC 3986's unreserved characters: their percent-encoded and plain forms name the same thing. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/**
 * One spelling of a URL path, for deciding what it names: percent-encoded unreserved characters
 * decoded (`%61` → `a`, `%2D` → `-`, hex digits in either case), repeated slashes collapsed and dot
 * segments resolved (`/./`, `/x/../`, a `..` above the root stays at the root). Reserved characters
 * stay encoded (`%2F` is not a separator), and case is kept: paths are case-sensitive, `/API` is not
 * `/api` (RFC 3986 §6.2.2).
 */
export function normalizePath(path: string): string {
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16))
    return UNRESERVED.test(char) ? char : encoded
  })
  const segments: string[] = []
  // a path ending in a slash, `.` or `..` names a folder: it keeps its final slash
  let folder = false
  for (const part of decoded.split('/')) {
    folder = part === '' || part === '.' || part === '..'
    if (part === '..') segments.pop()
    else if (!folder) segments.push(part)
  }
  return segments.length === 0 ? '/' : `/${segments.join('/')}${folder ? '/' : ''}`
}
