import { describe, expect, test } from 'bun:test'
import { normalizePath } from '../../src/lib/url-path'

describe('normalizePath', () => {
  test.each([
    ['/', '/'],
    ['', '/'],
    ['/api/v1/x', '/api/v1/x'],
    ['//api/v1/nope', '/api/v1/nope'],
    ['///health', '/health'],
    ['/api//v1///x', '/api/v1/x'],
    ['/api/', '/api/'],
    ['//', '/'],
    // unreserved characters decoded, hex in either case
    ['/%61pi/v1/x', '/api/v1/x'],
    ['/%61%70%69', '/api'],
    ['/a%2Db%2dc%5F%7E%2E', '/a-b-c_~.'],
    ['/%30%39%5a', '/09Z'],
    // reserved and other characters stay encoded, as they were written
    ['/swagger%2Fjson', '/swagger%2Fjson'],
    ['/api%2fv1', '/api%2fv1'],
    ['/a%20b%25c%3F', '/a%20b%25c%3F'],
    ['/%zz/%4', '/%zz/%4'],
    // no double decoding: %2561 is "%61" spelt out
    ['/%2561pi', '/%2561pi'],
    // case is kept: paths are case-sensitive
    ['/%41PI', '/API'],
    ['/API/v1', '/API/v1'],
    // dot segments, also when spelt encoded or made by collapsing
    ['/./api/v1/x', '/api/v1/x'],
    ['/me/../api/v1/x', '/api/v1/x'],
    ['/%2E/api', '/api'],
    ['/x/%2e%2e/health', '/health'],
    ['/../../api', '/api'],
    ['/api/v1/..', '/api/'],
    ['/api/.', '/api/'],
    ['/a//..//api', '/api'],
    ['/.../api', '/.../api'],
    ['/..a/api', '/..a/api'],
  ])('%p → %p', (path, expected) => {
    expect(normalizePath(path)).toBe(expected)
  })
})
