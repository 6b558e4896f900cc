import type { Db } from './client'

/**
 * A query built once per database and run many times with its placeholders filled
 * (`sql.placeholder`): Drizzle skips building the SQL text, and the connection's
 * statement cache skips preparing it. For the reads every request makes.
 */
export function preparedQuery<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>()
  return (db) => {
    let query = built.get(db)
    if (query === undefined) built.set(db, (query = build(db)))
    return query
  }
}
