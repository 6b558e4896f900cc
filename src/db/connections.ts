import Database from 'libsql'

/**
 * Connections to an embedded file: each one set up once, and its prepared statements
 * kept and reused.
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
 *
 * The first statement on a connection is also where the connection is set up. The
 * client opens more connections as it needs them (a read while a transaction holds
 * one), and `synchronous` is per connection: without this, commits on those others
 * would wait for the disk (FULL) where the first connection's do not (NORMAL, which
 * in WAL mode keeps every commit through a crash of the process). The page cache is
 * 64 MiB instead of SQLite's 2 MiB: the indexes of a million attendance records do not
 * fit in 2 MiB, and every insert touches four of them.
 */
const MAX_STATEMENTS_PER_CONNECTION = 1000

type Connection = InstanceType<typeof Database>
type Statement = ReturnType<Connection['prepare']>

const caches = new WeakMap<Connection, Map<string, Statement>>()
let installed = false

/**
 * The client asks a statement for its columns and sets its modes on every run; a reused
 * statement answers those from what it was told before instead of asking the engine.
 */
function remember(statement: Statement): void {
  const columns = statement.columns.bind(statement)
  let known: ReturnType<Statement['columns']> | undefined
  statement.columns = () => (known ??= columns())
  for (const mode of ['raw', 'safeIntegers'] as const) {
    const set = statement[mode].bind(statement)
    let current: boolean | undefined
    statement[mode] = (toggle = true) => {
      // raw() throws for a statement that returns no rows: it keeps throwing, as before
      if (current !== toggle) {
        set(toggle)
        current = toggle
      }
      return statement
    }
  }
}

export function setUpConnections(): void {
  if (installed) return
  installed = true
  const prototype = Database.prototype as { prepare(this: Connection, sql: string): Statement }
  const prepare = prototype.prepare
  prototype.prepare = function cachedPrepare(this: Connection, sql: string): Statement {
    let statements = caches.get(this)
    if (!statements) {
      caches.set(this, (statements = new Map()))
      this.exec('PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536')
    }
    let statement = statements.get(sql)
    if (!statement) {
      statement = prepare.call(this, sql)
      remember(statement)
      // a runaway number of shapes would be a bug; start over rather than grow without end
      if (statements.size >= MAX_STATEMENTS_PER_CONNECTION) statements.clear()
      statements.set(sql, statement)
    }
    return statement
  }
}
