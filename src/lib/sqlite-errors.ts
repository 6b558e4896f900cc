/** libSQL errors arrive wrapped (Drizzle's DrizzleQueryError); these look through the chain. */
function codes(error: unknown): string[] {
  const found: string[] = []
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; extendedCode?: unknown; message?: unknown; cause?: unknown }
    for (const value of [e.code, e.extendedCode, e.message]) if (typeof value === 'string') found.push(value)
    current = e.cause
  }
  return found
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
