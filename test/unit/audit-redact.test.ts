import { describe, expect, test } from 'bun:test'
import { redact } from '../../src/modules/audit/recorder'

describe('what an audit entry may hold', () => {
  test('keys that could hold a secret are left out at any depth; everything else is kept', () => {
    const value = {
      id: 1,
      username: 'bob',
      password: 'hunter2-hunter2',
      password_hash: '$argon2id$...',
      nested: { refresh_token: 'abc', accessToken: 'def', jwt_secret: 'x', keep: [1, { apiSecret: 's', name: 'n' }] },
      roles: ['admin'],
      note: null,
    }
    expect(redact(value)).toEqual({ id: 1, username: 'bob', nested: { keep: [1, { name: 'n' }] }, roles: ['admin'], note: null })
  })

  test('plain values pass through', () => {
    for (const value of [null, 0, 'text', true, [1, 'a']]) expect(redact(value)).toEqual(value)
  })
})
