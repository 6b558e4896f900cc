/** libSQL errors arrive wrapped (Drizzle's DrizzleQueryError); these look through the chain. */
function codes(error: unknown): string[] {
  return chain(error).flatMap((link) => [link.code, link.extendedCode, link.message].filter((value): value is string => typeof value === 'string'))
}

export function isUniqueViolation(error: unknown): boolean {
  return codes(error).some((c) => c.includes('SQLITE_CONSTRAINT_UNIQUE') || c.includes('SQLITE_CONSTRAINT_PRIMARYKEY') || c.includes('UNIQUE constraint failed'))
}

export function isForeignKeyViolation(error: unknown): boolean {
  return codes(error).some((c) => c.includes('SQLITE_CONSTRAINT_FOREIGNKEY') || c.includes('FOREIGN KEY constraint failed'))
}

/** The index or column named in a unique violation, e.g. "users.username" or "index 'x'". */
export function uniqueViolationTarget(error: unknown): string {
  for (const c of codes(error)) {
    const match = /UNIQUE constraint failed: ([^\n]+)/.exec(c)
    if (match) return match[1]
  }
  return ''
}

/** Runs `work`, turning the database's refusal on a unique index or a foreign key into the given error. */
export async function onConstraint<T>(work: () => Promise<T>, errors: { unique?: () => Error; foreignKey?: () => Error }): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (errors.unique && isUniqueViolation(error)) throw errors.unique()
    if (errors.foreignKey && isForeignKeyViolation(error)) throw errors.foreignKey()
    throw error
  }
}

interface Link {
  name?: unknown
  code?: unknown
  extendedCode?: unknown
  message?: unknown
  status?: unknown
  cause?: unknown
}

/** The HTTP status a libSQL server answered with (its client's HttpServerError), not any error's `status`. */
const httpStatus = (link: Link): unknown => (link.name === 'HttpServerError' ? link.status : undefined)

/** The errors of the chain, outermost first. */
function chain(error: unknown): Link[] {
  const links: Link[] = []
  let current: unknown = error
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    links.push(current as Link)
    current = (current as Link).cause
  }
  return links
}

/**
 * The database refused to start the work, so nothing of it happened and it may be run again: the
 * file is locked by another writer (SQLITE_BUSY and its extended codes), a libSQL server took the
 * write lock back from a transaction that held it too long (TRANSACTION_TIMEOUT: rolled back), or
 * the server turned the request away as too many at once (HTTP 429).
 */
export function isBusy(error: unknown): boolean {
  return chain(error).some(
    (link) =>
      (typeof link.code === 'string' && (link.code.startsWith('SQLITE_BUSY') || link.code === 'TRANSACTION_TIMEOUT')) ||
      (typeof link.extendedCode === 'string' && link.extendedCode.startsWith('SQLITE_BUSY')) ||
      httpStatus(link) === 429,
  )
}

/** What is wrong with the disk under the database, when a statement failed for it (CONTRACT §25). */
export type DiskFault = 'full' | 'read-only' | 'io'

/** SQLite's codes (and its messages, for clients that drop the code) for a full, read-only or failing disk. */
const DISK_FAULTS: [DiskFault, RegExp][] = [
  ['full', /^SQLITE_FULL|database or disk is full/],
  ['read-only', /^SQLITE_READONLY|readonly database|read-only file system/],
  ['io', /^SQLITE_IOERR|disk I\/O error/],
]

/** The disk fault a database error means, or null: the first of the chain that names one. */
export function diskFault(error: unknown): DiskFault | null {
  for (const code of codes(error)) for (const [fault, pattern] of DISK_FAULTS) if (pattern.test(code)) return fault
  return null
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ConnectionRefused', 'ConnectionClosed', 'HRANA_WEBSOCKET_ERROR'])

/** A libSQL server that could not be reached, or a proxy in front of it that says it is down (502, 503, 504). */
export function isUnreachable(error: unknown): boolean {
  return chain(error).some(
    (link) => (typeof link.code === 'string' && UNREACHABLE_CODES.has(link.code)) || [502, 503, 504].includes(httpStatus(link) as number),
  )
}

/** The errors of libSQL's clients: the embedded engine's, the server's answer, the client's own. */
const LIBSQL_ERRORS = new Set(['SqliteError', 'ResponseError', 'LibsqlError', 'LibsqlBatchError', 'HttpServerError'])

/**
 * The database's own code and message for a failure (the innermost libSQL error of the chain), for
 * logs: never the statement's parameters, which Drizzle's wrapper lists in its own message.
 */
export function databaseError(error: unknown): { code: string; message: string } | null {
  let found: { code: string; message: string } | null = null
  for (const link of chain(error)) {
    if (!LIBSQL_ERRORS.has(String(link.name))) continue
    const code = typeof link.extendedCode === 'string' ? link.extendedCode : typeof link.code === 'string' ? link.code : null
    if (code === null || typeof link.message !== 'string') continue
    // libSQL prefixes its message with the code, sometimes twice ("SQLITE_BUSY: SQLITE_BUSY: SQLite error: ...")
    let message = link.message
    for (const prefix of [code, typeof link.code === 'string' ? link.code : code])
      while (message.startsWith(`${prefix}: `)) message = message.slice(prefix.length + 2)
    found = { code, message }
  }
  return found
}
