import { basename, dirname, resolve } from 'node:path'
import type { Client } from '@libsql/client'
// Drizzle's libSQL driver through its entry point of an embedded client, which loads no client of a server
import type { LibSQLDatabase } from 'drizzle-orm/libsql'
import { drizzle } from 'drizzle-orm/libsql/sqlite3'
import { createPrivateFile, holdsOnly, makePrivateFolder, tightenAll } from '../lib/private-files'
import * as schema from './schema'
import { createCheckpointer, type Checkpointer } from './checkpointer'
import { EmbeddedClient } from './embedded'
import { DEFAULT_RETRY, GuardedClient, retryWhileBusy, withinScope, writeScope, type RetryPolicy, type Scope } from './guard'
import { createWriteGate, type WriteGate } from './write-gate'

export type Db = LibSQLDatabase<typeof schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx

export interface WriteOptions {
  /** this write's limit instead of the database's (migrations at start-up may take long) */
  timeoutMs?: number
  /** at least this limit, where the database's is shorter (an import of many rows) */
  minTimeoutMs?: number
}

export interface Database {
  db: Db
  /** the libSQL client, every call timed (src/db/guard.ts) */
  client: Client
  /**
   * Runs `work` in one write transaction; every change goes through here. Busy is retried, the
   * whole transaction at once (so `work` may run more than once and must only touch the database);
   * past the time limit it ends in a DatabaseUnavailableError (503).
   */
  write<T>(work: (tx: Tx) => Promise<T>, options?: WriteOptions): Promise<T>
  /**
   * Runs `work` as one of this process's writers (alone, for an embedded file), under one time
   * limit; for a statement that is its own transaction. Busy is retried per statement, not for
   * `work` as a whole.
   */
  exclusive<T>(work: () => Promise<T>, options?: WriteOptions): Promise<T>
  /** closes the connections at once; resolves when the checkpoint thread, if any, has ended (wait for it before the process exits) */
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** the limit of each call, and of each write as a whole, waiting for its turn included */
  timeoutMs: number
  /** writes of this process in flight at once to a libSQL server (an embedded file takes one at a time) */
  maxWrites: number
  retry?: RetryPolicy
  /** an embedded file's WAL is checkpointed by a thread of its own, never by a commit (./checkpointer.ts): the service's setting */
  backgroundCheckpoints?: boolean
  /** the service's other data folders (file store, backups): the database's folder, when it holds only them and the database's files, is made private too */
  dataFolders?: readonly string[]
  /** hears which of an embedded database's files and folder were readable by others and no longer are (`path 0644 → 0600`) */
  tightened?: (changes: string[]) => void
}

export const DEFAULT_DATABASE_OPTIONS: DatabaseOptions = { timeoutMs: 10_000, maxWrites: 4 }

const BUSY_TIMEOUT_MS = 5000

/**
 * Writes are bounded per database inside this process, in one gate shared by every Database
 * opened on it. An embedded file takes one writer at a time: libSQL waits for a lock
 * synchronously, so two transactions of one process contending for the file would freeze the event
 * loop that one of them needs to finish (other processes are handled by the busy timeout). A
 * libSQL server takes `maxWrites`: it runs one write at a time anyway, and each write waiting there
 * holds one of its connections; the rest wait here, in order, within their time limit.
 */
const gates = new Map<string, { gate: WriteGate; users: number }>()

function localPath(url: string): string | null {
  if (!url.startsWith('file:')) return null
  return url.slice('file:'.length).split('?')[0]
}

export async function openDatabase(url: string, authToken?: string, options: DatabaseOptions = DEFAULT_DATABASE_OPTIONS): Promise<Database> {
  const path = localPath(url)
  if (path === null) {
    // the client of a libSQL server (HTTP, WebSocket) is loaded only for one
    const { createClient } = await import('@libsql/client')
    return databaseOver(createClient({ url, authToken }), { ...options, key: url, embedded: false })
  }
  const tightened = openPrivately(path, options.dataFolders ?? [])
  if (tightened.length > 0) options.tightened?.(tightened)
  const backgroundCheckpoints = options.backgroundCheckpoints ?? false
  const client = new EmbeddedClient(path, { busyTimeoutMs: Math.min(BUSY_TIMEOUT_MS, options.timeoutMs), backgroundCheckpoints })
  // WAL is kept in the file; `synchronous` is set on each connection (see embedded.ts)
  await client.execute('PRAGMA journal_mode = WAL')
  return databaseOver(client, { ...options, key: path, embedded: true, checkpointer: backgroundCheckpoints ? createCheckpointer(path) : undefined })
}

/**
 * The database file holds personal data (and the generated signing key): it, its folder and the
 * -wal and -shm SQLite makes beside it (with the file's own mode) are the service's user's only.
 * A new file is created empty with that mode before SQLite opens it; existing ones are tightened,
 * and so is an existing folder that holds nothing but the database's files (names beginning with
 * the file's: -wal, -shm, a restore's staging) and `dataFolders`.
 */
function openPrivately(path: string, dataFolders: readonly string[]): string[] {
  if (path === ':memory:') return []
  const folder = dirname(path)
  makePrivateFolder(folder)
  createPrivateFile(path)
  const own = [path, ...dataFolders.filter((other) => resolve(dirname(other)) === resolve(folder))].map((own) => basename(own))
  const folderIsOurs = holdsOnly(folder, (name) => own.some((prefix) => name.startsWith(prefix)))
  return tightenAll([...(folderIsOurs ? [folder] : []), path, `${path}-wal`, `${path}-shm`])
}

/** The Database over an open client (tests hand in one that misbehaves on purpose). */
export function databaseOver(raw: Client, options: DatabaseOptions & { key: string; embedded: boolean; checkpointer?: Checkpointer }): Database {
  const { checkpointer } = options
  const limits = { timeoutMs: options.timeoutMs, retry: options.retry ?? DEFAULT_RETRY, synchronous: raw instanceof EmbeddedClient }
  const client = new GuardedClient(raw, limits)
  const db = drizzle(client, { schema })

  let shared = gates.get(options.key)
  if (!shared) gates.set(options.key, (shared = { gate: createWriteGate(options.embedded ? 1 : options.maxWrites), users: 0 }))
  shared.users++
  const { gate } = shared

  /** Runs `work` in a write's scope, in this process's turn to write; the checkpointer hears of it after. */
  const inTurn = async <T>(writeOptions: WriteOptions, work: (scope: Scope) => Promise<T>): Promise<T> => {
    const scope = writeScope(writeOptions.timeoutMs ?? Math.max(limits.timeoutMs, writeOptions.minTimeoutMs ?? 0))
    const leave = await gate.enter(scope.deadline)
    try {
      return await withinScope(scope, () => work(scope))
    } finally {
      leave()
      checkpointer?.nudge()
    }
  }
  const exclusive = <T>(work: () => Promise<T>, writeOptions: WriteOptions = {}): Promise<T> => inTurn(writeOptions, work)
  const write = <T>(work: (tx: Tx) => Promise<T>, writeOptions: WriteOptions = {}): Promise<T> =>
    inTurn(writeOptions, (scope) => retryWhileBusy(() => db.transaction(work), scope.deadline, limits.retry))

  let closed: Promise<void> | null = null
  const close = () => {
    if (closed) return closed
    if (--shared.users === 0 && gates.get(options.key) === shared) gates.delete(options.key)
    closed = checkpointer?.stop() ?? Promise.resolve()
    raw.close()
    return closed
  }
  return { db, client, write, exclusive, close }
}
