import Database from 'libsql'
// the embedded client's entry point: the package's main one would also load its clients of a server
import { LibsqlBatchError, LibsqlError } from '@libsql/client/sqlite3'
import type {
  Client,
  InArgs,
  InStatement,
  InValue,
  Replicated,
  ResultSet,
  Row,
  Transaction,
  TransactionMode,
} from '@libsql/client'

/*
 * The client of an embedded database file: `@libsql/client`'s interface (so Drizzle and the guard
 * take it as they take the client of a libSQL server), over the `libsql` driver directly.
 *
 * `@libsql/client` does the same, at a cost a profile of the employee reads put at about a third of
 * the server's time: it prepares every statement anew and asks it for its columns twice, has the
 * engine make a BigInt of every integer and then turns each back into a number, and builds every row
 * with two `Object.defineProperty` calls per column. Here each connection keeps its statements
 * prepared (Drizzle builds the same SQL text for the same query shape; values are bound), integers
 * come as numbers (every integer this service stores, ids, fen and epoch milliseconds, is far below
 * 2^53), and a row is made by one small function per result shape. Rows behave as the other
 * client's do: the columns by name as own enumerable properties (the first of a name), and every
 * column by position, with `length`, as non-enumerable properties.
 *
 * Connections are pooled as there: a call borrows one for its synchronous run, a transaction for
 * its lifetime, so reads go on while a write transaction is open. Each connection is set up once:
 * `synchronous = NORMAL` (in WAL mode a commit survives a crash of the process without waiting for
 * the disk), a 64 MiB page cache (the indexes a clock-in touches in a million records do not fit
 * SQLite's default 2 MiB), and with background checkpoints (./checkpointer.ts) no checkpoint of its
 * own on commit.
 */

type Connection = InstanceType<typeof Database>
type Statement = ReturnType<Connection['prepare']>

export interface EmbeddedOptions {
  /** how long a connection waits for another writer's lock, ms (SQLite's busy timeout) */
  busyTimeoutMs: number
  /** connections open at once, at most (transactions hold one each) */
  maxConnections?: number
  /** when true, commits never checkpoint the WAL: ./checkpointer.ts does, off the request path */
  backgroundCheckpoints?: boolean
}

/** A statement kept prepared on its connection, with what it returns. */
interface Prepared {
  statement: Statement
  /** null for a statement that returns no rows */
  shape: RowShape | null
  /** its last clause is `limit ?`: bound to 1, it is read with the driver's single-row call, a third cheaper than a whole read */
  limited: boolean
}

interface RowShape {
  columns: string[]
  columnTypes: string[]
  make: (values: unknown[]) => Row
}

/** More shapes than this on one connection would be a bug; its statements are then prepared anew. */
const MAX_STATEMENTS_PER_CONNECTION = 1000
const DEFAULT_MAX_CONNECTIONS = 20
const CACHE_KIB = 65536

/** The values of a row whose columns repeat a name, where the positions read them from. */
const VALUES = Symbol('values')

/**
 * How rows of one result shape are made. Positions are getters on a shared prototype; a column whose
 * name an earlier one took (a join's second `id`) is read from the row's values, kept non-enumerable.
 */
function rowShape(statement: Statement): RowShape {
  const described = statement.columns() as { name: string; type: string | null }[]
  const columns = described.map((column) => column.name)
  const columnTypes = described.map((column) => column.type ?? '')
  const named = columns.map((name, i) => columns.indexOf(name) === i && name !== 'length')
  const repeats = named.includes(false)
  const prototype = Object.create(Object.prototype) as Record<PropertyKey, unknown>
  Object.defineProperty(prototype, 'length', { value: columns.length })
  columns.forEach((name, i) => {
    Object.defineProperty(prototype, i, {
      get: named[i] ? function (this: Record<string, unknown>) { return this[name] } : function (this: { [VALUES]: unknown[] }) { return this[VALUES][i] },
    })
  })
  const make = (values: unknown[]): Row => {
    const row = Object.create(prototype) as Record<string, unknown>
    for (let i = 0; i < columns.length; i++) if (named[i]) row[columns[i]] = fromSql(values[i])
    if (repeats) Object.defineProperty(row, VALUES, { value: values.map(fromSql) })
    return row as Row
  }
  return { columns, columnTypes, make }
}

/** A blob comes from the driver as a Buffer; rows carry it as an ArrayBuffer of its own, as the other client's do. */
function fromSql(value: unknown): unknown {
  return value instanceof Uint8Array ? value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) : value
}

function toSql(value: InValue | undefined): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('Only finite numbers (not Infinity or NaN) can be passed as arguments')
    return value
  }
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Date) return value.valueOf()
  if (value instanceof ArrayBuffer) return Buffer.from(value)
  if (value === undefined) throw new TypeError('undefined cannot be passed as argument to the database')
  return value
}

function argsOf(args: InArgs | undefined): unknown[] | Record<string, unknown> {
  if (args === undefined) return []
  if (Array.isArray(args)) return args.map(toSql)
  const named: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(args)) named['@$:'.includes(name[0]) ? name.slice(1) : name] = toSql(value)
  return named
}

const BASE_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR', 2: 'SQLITE_INTERNAL', 3: 'SQLITE_PERM', 4: 'SQLITE_ABORT', 5: 'SQLITE_BUSY', 6: 'SQLITE_LOCKED', 7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY', 9: 'SQLITE_INTERRUPT', 10: 'SQLITE_IOERR', 11: 'SQLITE_CORRUPT', 12: 'SQLITE_NOTFOUND', 13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN', 15: 'SQLITE_PROTOCOL', 16: 'SQLITE_EMPTY', 17: 'SQLITE_SCHEMA', 18: 'SQLITE_TOOBIG', 19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH', 21: 'SQLITE_MISUSE', 22: 'SQLITE_NOLFS', 23: 'SQLITE_AUTH', 24: 'SQLITE_FORMAT', 25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB', 27: 'SQLITE_NOTICE', 28: 'SQLITE_WARNING',
}

/** The driver's error as the other client gives it: a LibsqlError with SQLite's base and extended codes. */
function asLibsqlError(error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error
  const { code: extendedCode, rawCode, message } = error as { code: string; rawCode?: number; message: string }
  const base = rawCode === undefined ? 'SQLITE_UNKNOWN' : (BASE_CODES[rawCode & 0xff] ?? `SQLITE_UNKNOWN_${rawCode & 0xff}`)
  return new LibsqlError(message, base, extendedCode, rawCode, error as Error)
}

const BEGIN: Record<TransactionMode, string> = { write: 'BEGIN IMMEDIATE', read: 'BEGIN TRANSACTION READONLY', deferred: 'BEGIN DEFERRED' }

const closedError = (what: string) => new LibsqlError(`The ${what} is closed`, what === 'client' ? 'CLIENT_CLOSED' : 'TRANSACTION_CLOSED')

/** A connection and its prepared statements. */
class PooledConnection {
  private readonly statements = new Map<string, Prepared>()

  constructor(readonly db: Connection) {}

  private prepared(sql: string): Prepared {
    let prepared = this.statements.get(sql)
    if (!prepared) {
      const statement = this.db.prepare(sql)
      const shape = statement.reader ? rowShape(statement.raw(true)) : null
      if (this.statements.size >= MAX_STATEMENTS_PER_CONNECTION) this.statements.clear()
      this.statements.set(sql, (prepared = { statement, shape, limited: /\slimit \?$/i.test(sql) }))
    }
    return prepared
  }

  execute(stmt: InStatement): ResultSet {
    const [sql, args] = typeof stmt === 'string' ? [stmt, undefined] : [stmt.sql, stmt.args]
    try {
      const { statement, shape, limited } = this.prepared(sql)
      const values = argsOf(args)
      if (shape) {
        let rows: unknown[][]
        if (limited && Array.isArray(values) && values[values.length - 1] === 1) {
          const row = statement.get(values) as unknown[] | undefined
          rows = row === undefined ? [] : [row]
        } else rows = statement.all(values) as unknown[][]
        return resultSet(shape.columns, shape.columnTypes, rows.map(shape.make), 0, undefined)
      }
      const info = statement.run(values) as { changes: number; lastInsertRowid: number | bigint }
      return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid))
    } catch (error) {
      throw asLibsqlError(error)
    }
  }

  executeMultiple(sql: string): void {
    try {
      this.db.exec(sql)
    } catch (error) {
      throw asLibsqlError(error)
    }
  }

  /** `stmts` as one transaction begun in `mode`, each with its result. */
  transact(mode: TransactionMode, stmts: Array<InStatement | [string, InArgs?]>): ResultSet[] {
    this.execute(BEGIN[mode])
    const results = this.batch(stmts)
    this.execute('COMMIT')
    return results
  }

  /** Statements after `begin`, each with its result; the first failure names its index. */
  batch(stmts: Array<InStatement | [string, InArgs?]>): ResultSet[] {
    return stmts.map((stmt, i) => {
      if (!this.db.inTransaction) throw new LibsqlBatchError('The transaction has been rolled back', i, 'TRANSACTION_CLOSED')
      try {
        return this.execute(Array.isArray(stmt) ? { sql: stmt[0], args: stmt[1] ?? [] } : stmt)
      } catch (error) {
        if (error instanceof LibsqlError && !(error instanceof LibsqlBatchError))
          throw new LibsqlBatchError(error.message, i, error.code, error.extendedCode, error.rawCode, error.cause instanceof Error ? error.cause : undefined)
        throw error
      }
    })
  }

  /** Rolls back whatever is still open; false when the connection is no longer usable. */
  settle(): boolean {
    if (!this.db.open) return false
    if (!this.db.inTransaction) return true
    try {
      this.db.exec('ROLLBACK')
      return true
    } catch {
      return false
    }
  }

  close(): void {
    try {
      if (this.db.open) this.db.close()
    } catch {
      // nothing more to do while closing
    }
  }
}

function resultSet(columns: string[], columnTypes: string[], rows: Row[], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet {
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({
      columns,
      columnTypes,
      rows: rows.map((row) => Array.prototype.map.call(row, (value) => (value instanceof ArrayBuffer ? Buffer.from(value).toString('base64') : value))),
      rowsAffected,
      lastInsertRowid: lastInsertRowid === undefined ? null : String(lastInsertRowid),
    }),
  }
}

/** Connections to one file: a borrow takes an idle one or opens one, up to the limit, then waits its turn. */
class Pool {
  private idle: PooledConnection[] = []
  private borrowed = new Set<PooledConnection>()
  private heldByTransactions = new Set<PooledConnection>()
  private waiters: { resolve: (connection: PooledConnection) => void; reject: (error: unknown) => void; forTransaction: boolean }[] = []
  closed = false

  constructor(
    private readonly path: string,
    private readonly options: EmbeddedOptions,
  ) {}

  private open(): PooledConnection {
    const db = new Database(this.path, { timeout: this.options.busyTimeoutMs })
    db.exec(
      `PRAGMA synchronous = NORMAL; PRAGMA cache_size = -${CACHE_KIB}${this.options.backgroundCheckpoints ? '; PRAGMA wal_autocheckpoint = 0' : ''}`,
    )
    return new PooledConnection(db)
  }

  /** Opens the first connection now: a file that cannot be opened fails here, not at the first query. */
  probe(): void {
    try {
      this.idle.push(this.open())
    } catch (error) {
      throw asLibsqlError(error)
    }
  }

  /** A connection lent at once: the idle one used last (its page cache is the warmest), or a new one below the limit; null when all are lent. */
  private lendNow(forTransaction: boolean): PooledConnection | null {
    const connection = this.idle.pop() ?? (this.borrowed.size < this.max ? this.open() : null)
    return connection && this.lend(connection, forTransaction)
  }

  private get max(): number {
    return this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS
  }

  acquire(forTransaction = false): Promise<PooledConnection> {
    if (this.closed) return Promise.reject(closedError('client'))
    try {
      const connection = this.lendNow(forTransaction)
      if (connection) return Promise.resolve(connection)
    } catch (error) {
      return Promise.reject(asLibsqlError(error))
    }
    // every borrow but a transaction's gives its connection back before anyone else runs
    if (this.heldByTransactions.size >= this.max)
      return Promise.reject(new LibsqlError(`All ${this.max} connections are held by open transactions`, 'TRANSACTION_ACTIVE'))
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject, forTransaction }))
  }

  private lend(connection: PooledConnection, forTransaction: boolean): PooledConnection {
    this.borrowed.add(connection)
    if (forTransaction) this.heldByTransactions.add(connection)
    return connection
  }

  release(connection: PooledConnection): void {
    this.borrowed.delete(connection)
    this.heldByTransactions.delete(connection)
    if (this.closed || !connection.settle()) return connection.close()
    const waiter = this.waiters.shift()
    if (waiter) waiter.resolve(this.lend(connection, waiter.forTransaction))
    else this.idle.push(connection)
  }

  /**
   * Runs `work` on a connection and gives it back. With one idle (nearly always: a call that is not a
   * transaction's gives its connection back before anything else runs) it runs at once, on the
   * connection used last. Waiting for a turn first would let the calls of other requests take other
   * connections meanwhile, and a connection drops its whole page cache when it sees another one's
   * commit: a clock-in's reads and insert on different connections cost the insert three times as much.
   */
  with<T>(work: (connection: PooledConnection) => T): Promise<T> {
    if (this.closed) return Promise.reject(closedError('client'))
    let connection: PooledConnection | null
    try {
      connection = this.lendNow(false)
    } catch (error) {
      return Promise.reject(asLibsqlError(error))
    }
    if (connection === null) return this.acquire().then((waited) => this.run(waited, work))
    const lent = connection
    return new Promise((resolve) => resolve(this.run(lent, work)))
  }

  private run<T>(connection: PooledConnection, work: (connection: PooledConnection) => T): T {
    try {
      if (!connection.db.open) throw new LibsqlError('The connection was closed while this operation was in flight', 'CLIENT_CLOSED')
      return work(connection)
    } finally {
      this.release(connection)
    }
  }

  close(): void {
    this.closed = true
    for (const connection of [...this.idle, ...this.borrowed]) connection.close()
    this.idle = []
    this.borrowed.clear()
    this.heldByTransactions.clear()
    for (const waiter of this.waiters.splice(0)) waiter.reject(closedError('client'))
  }
}

export class EmbeddedClient implements Client {
  private pool: Pool
  readonly protocol = 'file'

  constructor(
    private readonly path: string,
    private readonly options: EmbeddedOptions,
  ) {
    this.pool = new Pool(path, options)
    this.pool.probe()
  }

  get closed(): boolean {
    return this.pool.closed
  }

  execute(stmt: InStatement): Promise<ResultSet>
  execute(sql: string, args?: InArgs): Promise<ResultSet>
  execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    return this.pool.with((connection) => connection.execute(typeof stmt === 'string' ? { sql: stmt, args: args ?? [] } : stmt))
  }

  batch(stmts: Array<InStatement | [string, InArgs?]>, mode: TransactionMode = 'deferred'): Promise<ResultSet[]> {
    return this.pool.with((connection) => connection.transact(mode, stmts))
  }

  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.pool.with((connection) => {
      connection.execute('PRAGMA foreign_keys=off')
      try {
        return connection.transact('deferred', stmts)
      } finally {
        connection.settle()
        connection.execute('PRAGMA foreign_keys=on')
      }
    })
  }

  executeMultiple(sql: string): Promise<void> {
    return this.pool.with((connection) => connection.executeMultiple(sql))
  }

  async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
    const connection = await this.pool.acquire(true)
    try {
      connection.execute(BEGIN[mode])
    } catch (error) {
      this.pool.release(connection)
      throw error
    }
    return new EmbeddedTransaction(connection, (used) => this.pool.release(used))
  }

  async sync(): Promise<Replicated> {
    return undefined
  }

  close(): void {
    this.pool.close()
  }

  async reconnect(): Promise<void> {
    this.pool.close()
    this.pool = new Pool(this.path, this.options)
    this.pool.probe()
  }
}

/** A transaction on the connection it holds until it commits, rolls back or closes. */
class EmbeddedTransaction implements Transaction {
  constructor(
    private connection: PooledConnection | null,
    private readonly release: (connection: PooledConnection) => void,
  ) {}

  get closed(): boolean {
    return this.connection === null || !this.connection.db.open || !this.connection.db.inTransaction
  }

  private open(): PooledConnection {
    if (this.closed) throw closedError('transaction')
    return this.connection!
  }

  private settle(): void {
    const connection = this.connection
    this.connection = null
    if (connection) this.release(connection)
  }

  async execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    return this.open().execute(typeof stmt === 'string' ? { sql: stmt, args: args ?? [] } : stmt)
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>): Promise<ResultSet[]> {
    return this.open().batch(stmts)
  }

  async executeMultiple(sql: string): Promise<void> {
    this.open().executeMultiple(sql)
  }

  async rollback(): Promise<void> {
    try {
      if (this.connection?.db.open && this.connection.db.inTransaction) this.connection.execute('ROLLBACK')
    } finally {
      this.settle()
    }
  }

  async commit(): Promise<void> {
    try {
      this.open().execute('COMMIT')
    } finally {
      this.settle()
    }
  }

  close(): void {
    this.settle()
  }
}
