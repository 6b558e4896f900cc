import { describe, expect, test } from 'bun:test'
import type { Client, Transaction } from '@libsql/client'
import { DEFAULT_RETRY, GuardedClient, withinScope, writeScope } from '../../src/db/guard'
import { DatabaseUnavailableError, timeoutError, unreachableError } from '../../src/db/unavailable'
import { render } from '../../src/lib/messages'

/*
 * A change whose answer never came (the connection to a libSQL server lost after a COMMIT or a lone
 * write was sent) may have been saved: the 503 says so, and a connection never made says it was not.
 */

const UNKNOWN = 'this change may or may not have been saved; check before repeating it, or repeat it with the same Idempotency-Key'

describe('the messages', () => {
  test('a lost connection after a change was sent says it may or may not have been saved, and how to repeat it safely', () => {
    expect(unreachableError(true).message).toBe(`The connection to the database was lost before it answered: ${UNKNOWN}`)
    expect(unreachableError(true)).toMatchObject({ reason: 'unreachable', outcomeUnknown: true, retryAfterSeconds: 5 })
  })

  test('a database that cannot be reached, nothing sent: try again later', () => {
    expect(unreachableError(false).message).toBe('The database cannot be reached; try again later')
    expect(unreachableError(false).outcomeUnknown).toBe(false)
  })

  test('a timeout says the same as a lost connection', () => {
    expect(timeoutError(1500, true).message).toBe(`The database did not answer within 1.5 s: ${UNKNOWN}`)
    expect(timeoutError(1500, false).message).toBe('The database did not answer within 1.5 s; try again later')
  })

  test('in Chinese, the same words for a timeout and a lost connection', () => {
    const unknown = '此次修改可能已保存，也可能没有；请先核对再重试，或使用相同的 Idempotency-Key 重试'
    expect(render(unreachableError(true).text, 'zh')).toBe(`数据库连接在响应前中断：${unknown}`)
    expect(render(timeoutError(1500, true).text, 'zh')).toBe(`数据库在 1.5 秒内没有响应：${unknown}`)
    expect(render(unreachableError(false).text, 'zh')).toBe('无法连接数据库；请稍后再试')
  })
})

/** What Bun's fetch throws when a connection breaks (ECONNRESET) or is never made (ConnectionRefused), wrapped as libSQL does. */
const network = (code: string) => Object.assign(new Error('fetch failed'), { code: 'HRANA_FETCH_ERROR', cause: Object.assign(new Error(code), { code }) })

type Step = 'execute' | 'commit'

/** A client whose transaction, or lone statement, fails at `step` with `error`. */
function failing(step: Step | 'lone', error: Error): Client {
  const ok = async () => ({ rows: [], columns: [], columnTypes: [], rowsAffected: 1, lastInsertRowid: undefined, toJSON: () => ({}) })
  const tx = {
    closed: false,
    execute: () => (step === 'execute' ? Promise.reject(error) : ok()),
    batch: async () => [],
    executeMultiple: async () => {},
    commit: () => (step === 'commit' ? Promise.reject(error) : Promise.resolve()),
    rollback: async () => {},
    close() {},
  } as unknown as Transaction
  return {
    closed: false,
    protocol: 'http',
    execute: () => (step === 'lone' ? Promise.reject(error) : ok()),
    transaction: async () => tx,
    close() {},
  } as unknown as Client
}

const guarded = (client: Client) => new GuardedClient(client, { timeoutMs: 2000, retry: DEFAULT_RETRY })

async function outcomeOf(work: () => Promise<unknown>): Promise<{ reason: string; outcomeUnknown: boolean }> {
  try {
    await work()
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseUnavailableError)
    const { reason, outcomeUnknown } = error as DatabaseUnavailableError
    return { reason, outcomeUnknown }
  }
  throw new Error('expected a failure')
}

/** A transaction of one INSERT, as Database.write runs it. */
const transaction = (client: GuardedClient) =>
  withinScope(writeScope(2000), async () => {
    const tx = await client.transaction('write')
    await tx.execute('INSERT INTO t VALUES (1)')
    await tx.commit()
  })

describe('where the guard decides the outcome is unknown', () => {
  test.each([
    ['the connection breaks on the COMMIT: it may have been saved', 'commit', 'ECONNRESET', true],
    ['it closes on the COMMIT (Bun’s code): the same', 'commit', 'ConnectionClosed', true],
    ['the COMMIT finds no server to connect to: nothing was sent, the server rolled it back', 'commit', 'ConnectionRefused', false],
    ['it breaks on a statement before the COMMIT: the server rolls the transaction back', 'execute', 'ECONNRESET', false],
  ] as const)('%s', async (_, step, code, unknown) => {
    expect(await outcomeOf(() => transaction(guarded(failing(step, network(code)))))).toEqual({ reason: 'unreachable', outcomeUnknown: unknown })
  })

  test('a lone write (its own transaction) that loses its connection: unknown; one refused: not sent', async () => {
    const lone = (code: string) => () => withinScope(writeScope(2000), () => guarded(failing('lone', network(code))).execute('INSERT INTO t VALUES (1)'))
    expect(await outcomeOf(lone('ECONNRESET'))).toEqual({ reason: 'unreachable', outcomeUnknown: true })
    expect(await outcomeOf(lone('ECONNREFUSED'))).toEqual({ reason: 'unreachable', outcomeUnknown: false })
  })

  test('a read outside any write that loses its connection: nothing was changed', async () => {
    expect(await outcomeOf(() => guarded(failing('lone', network('ECONNRESET'))).execute('SELECT 1'))).toEqual({ reason: 'unreachable', outcomeUnknown: false })
  })
})
