import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import * as schema from './schema'
import { setUpConnections } from './connections'

export type Db = LibSQLDatabase<typeof schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx

export interface Database {
  db: Db
  client: Client
  /** Runs `work` in one write transaction; every change goes through here. */
  write<T>(work: (tx: Tx) => Promise<T>): Promise<T>
  /** Runs `work` alone among this process's writers to the same database. */
  exclusive<T>(work: () => Promise<T>): Promise<T>
  close(): void
}

const BUSY_TIMEOUT_MS = 5000

/**
 * An embedded file is opened with a busy timeout, and its writes are queued per file
 * inside this process: libSQL waits for a lock synchronously, so two transactions of
 * one process contending for the file would freeze the event loop that one of them
 * needs to finish. Other processes are handled by the busy timeout.
 */
const writeQueues = new Map<string, Promise<unknown>>()

function localPath(url: string): string | null {
  if (!url.startsWith('file:')) return null
  return url.slice('file:'.length).split('?')[0]
}

export async function openDatabase(url: string, authToken?: string): Promise<Database> {
  const path = localPath(url)
  if (path !== null) {
    mkdirSync(dirname(path), { recursive: true })
    setUpConnections()
  }
  const client = createClient({ url, authToken, ...(path !== null ? { timeout: BUSY_TIMEOUT_MS } : {}) } as Parameters<
    typeof createClient
  >[0])
  // WAL is kept in the file; `synchronous` is set on each connection (see connections.ts)
  if (path !== null) await client.execute('PRAGMA journal_mode = WAL')
  const db = drizzle(client, { schema })
  const queueKey = path ?? url

  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    if (path === null) return work()
    const previous = writeQueues.get(queueKey) ?? Promise.resolve()
    const run = previous.then(work, work)
    const settled = run.catch(() => undefined)
    writeQueues.set(queueKey, settled)
    void settled.then(() => {
      if (writeQueues.get(queueKey) === settled) writeQueues.delete(queueKey)
    })
    return run
  }
  const write = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => exclusive(() => db.transaction(work))

  return { db, client, write, exclusive, close: () => client.close() }
}
