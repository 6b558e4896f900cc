import Database from 'libsql'

/**
 * Prepared statements, kept per connection and reused.
 *
 * `@libsql/client` prepares every statement it runs on an embedded file anew and asks
 * the statement for its columns twice; a profile of an employee read showed a third
 * of the server's CPU time in those two calls. Drizzle builds the same SQL text for
 * the same query shape (values are bound, not inlined), so a cache keyed by that text
 * reuses one prepared statement per shape. The client runs each statement to the end
 * synchronously (`all` or `run`), so a cached statement is never in use twice at once.
 *
 * A statement's columns are fixed by its text as long as the schema is: the service
 * names its columns (no `SELECT *`), and migrations only run at start-up.
 */
const MAX_STATEMENTS_PER_CONNECTION = 1000

type Connection = InstanceType<typeof Database>
type Statement = ReturnType<Connection['prepare']>

const caches = new WeakMap<Connection, Map<string, Statement>>()
let installed = false

export function installStatementCache(): void {
  if (installed) return
  installed = true
  const prototype = Database.prototype as { prepare(this: Connection, sql: string): Statement }
  const prepare = prototype.prepare
  prototype.prepare = function cachedPrepare(this: Connection, sql: string): Statement {
    let statements = caches.get(this)
    if (!statements) caches.set(this, (statements = new Map()))
    let statement = statements.get(sql)
    if (!statement) {
      statement = prepare.call(this, sql)
      const columns = statement.columns.bind(statement)
      let known: ReturnType<Statement['columns']> | undefined
      statement.columns = () => (known ??= columns())
      // a runaway number of shapes would be a bug; start over rather than grow without end
      if (statements.size >= MAX_STATEMENTS_PER_CONNECTION) statements.clear()
      statements.set(sql, statement)
    }
    return statement
  }
}
