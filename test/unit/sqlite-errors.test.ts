import { describe, expect, test } from 'bun:test'
import { LibsqlError } from '@libsql/client'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { ServiceUnavailableError, TooManyRequestsError } from '../../src/http/errors'
import { databaseError, isBusy, isUnreachable } from '../../src/lib/sqlite-errors'
import { say } from '../../src/modules/auth/messages'

/** Errors shaped as libSQL's clients throw them (name, code, message, cause), wrapped as Drizzle wraps them. */
const named = (name: string, fields: Record<string, unknown>, cause?: unknown) => Object.assign(new Error(String(fields.message ?? '')), { name, ...fields, cause })
const drizzle = (cause: unknown) => new DrizzleQueryError('insert into "attendance_records" ("employee_id") values (?)', [7], cause as Error)

const embeddedBusy = drizzle(
  Object.assign(new LibsqlError('database is locked', 'SQLITE_BUSY', 'SQLITE_BUSY', 5), {
    cause: named('SqliteError', { code: 'SQLITE_BUSY', message: 'database is locked' }),
  }),
)
const serverBusy = drizzle(
  new LibsqlError('SQLite error: database is locked', 'SQLITE_BUSY', undefined, undefined, named('ResponseError', { code: 'SQLITE_BUSY', message: 'SQLite error: database is locked' })),
)
const snapshotBusy = new LibsqlError('database is locked', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 517)
const lockTaken = new LibsqlError('TRANSACTION_TIMEOUT: Transaction timed out', 'TRANSACTION_TIMEOUT')
const tooMany = new LibsqlError('Server returned HTTP status 429', 'SERVER_ERROR', undefined, undefined, named('HttpServerError', { status: 429, message: 'Server returned HTTP status 429' }))
const serverDown = new LibsqlError('Server returned HTTP status 503', 'SERVER_ERROR', undefined, undefined, named('HttpServerError', { status: 503, message: 'Server returned HTTP status 503' }))
const refused = Object.assign(new TypeError('ECONNREFUSED: Unable to connect. Is the computer able to access the url?'), { code: 'ECONNREFUSED' })
const unique = drizzle(
  new LibsqlError('UNIQUE constraint failed: users.username', 'SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_UNIQUE', 2067, named('SqliteError', { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: users.username' })),
)
const fileMissing = Object.assign(new Error("ENOENT: no such file or directory, open 'x'"), { code: 'ENOENT' })

describe('what the database said', () => {
  test.each([
    ['the embedded file locked by another writer', true, false, embeddedBusy],
    ['a libSQL server busy', true, false, serverBusy],
    ['a stale snapshot (an extended busy code)', true, false, snapshotBusy],
    ['a libSQL server that took its write lock back (rolled back)', true, false, lockTaken],
    ['a libSQL server that turned the request away (HTTP 429)', true, false, tooMany],
    ['a proxy saying the server is down (HTTP 503)', false, true, serverDown],
    ['a server that refuses the connection', false, true, refused],
    ['a unique index', false, false, unique],
    ['this service’s own 429 is not the database’s', false, false, new TooManyRequestsError(say.tooManyAtOnce(), 5)],
    ['this service’s own 503 is not the database’s', false, false, new ServiceUnavailableError(say.busyHashing())],
    ['a file system error', false, false, fileMissing],
  ])('%s: busy %p, unreachable %p', (_, busy, unreachable, error) => {
    expect([isBusy(error), isUnreachable(error)]).toEqual([busy, unreachable])
  })

  test.each([
    ['the embedded engine’s code and message', embeddedBusy, { code: 'SQLITE_BUSY', message: 'database is locked' }],
    ['the server’s, without the code libSQL puts in front', serverBusy, { code: 'SQLITE_BUSY', message: 'SQLite error: database is locked' }],
    ['the extended code where there is one', unique, { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: users.username' }],
    ['the client’s own', lockTaken, { code: 'TRANSACTION_TIMEOUT', message: 'Transaction timed out' }],
    ['nothing for an error that is not libSQL’s', fileMissing, null],
  ])('for the log: %s', (_, error, expected) => {
    expect(databaseError(error)).toEqual(expected)
    // Drizzle's own message lists the parameters; what is logged from here never does
    expect(JSON.stringify(databaseError(error))).not.toContain('[7]')
  })
})
