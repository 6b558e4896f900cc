import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import Database from 'libsql'
import { createApp, type App } from '../src/app'
import { prepare } from '../src/bootstrap'
import { openDatabase } from '../src/db/client'
import { CONSOLE_CSP, loadConsole } from '../src/http/console'
import { untrustedForwarding } from '../src/http/forwarding-watch'
import { render } from '../src/lib/messages'
import { fixedClock } from '../src/lib/clock'
import type { Logger } from '../src/lib/logger'
import { writeBackup } from '../src/modules/backups/backup'
import { restoreBackup } from '../src/modules/backups/restore'
import { errorBody, healthyData, loginAdmin, makeUser, NOW, okBody, req, startApp, tempDir, testConfig, type TestApp } from './helpers'

/*
 * Issue 25, "Security first (2)": the console's fallback decides on the normalised path (CONTRACT
 * §13), files holding personal data are the service's user's only (§15), and X-Forwarded-For from a
 * peer outside TRUSTED_PROXIES is said once, in the log and on /health for administrators.
 */

const dirs: string[] = []
const newDir = (prefix = 'workforce-hardening-') => {
  const dir = tempDir(prefix)
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A logger that keeps its warnings. */
function keepingLogger(): Logger & { warnings: { message: string; fields?: Record<string, unknown> }[] } {
  const warnings: { message: string; fields?: Record<string, unknown> }[] = []
  return { debug() {}, info() {}, error() {}, warn: (message, fields) => void warnings.push({ message, fields }), warnings }
}

/** A raw request line over a socket: nothing on the way rewrites the path. Returns the status and the body. */
function rawGet(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('error', reject)
    socket.on('end', () => {
      const [head, ...body] = answer.split('\r\n\r\n')
      resolve({ status: Number(head.split(' ')[1]), body: body.join('\r\n\r\n') })
    })
  })
}

/** The mode bits of a path, as `0600`. */
const modeOf = (path: string) => `0${(statSync(path).mode & 0o777).toString(8)}`

/** Runs `work` with the umask most systems start with, whatever this process's is: the modes then come from the code. */
async function withUsualUmask<T>(work: () => Promise<T>): Promise<T> {
  const before = process.umask(0o022)
  try {
    return await work()
  } finally {
    process.umask(before)
  }
}

describe('the console fallback decides on the normalised path', () => {
  const PAGE = '<!doctype html><html><body><div id="root"></div></body></html>'
  let t: TestApp
  let app: App

  beforeAll(async () => {
    const dist = newDir('workforce-console-')
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), PAGE)
    t = await startApp()
    app = createApp({ ...t.deps, console: loadConsole(dist) })
  })
  afterAll(() => t.close())

  // the console's app is never handed to req(): the conformance check knows only the API's routes
  const send = (path: string, method = 'GET') => app.handle(new Request(`http://localhost${path}`, { method }))
  /** the path as the request's URL spells it, which the 404's message names */
  const pathOf = (path: string) => new URL(`http://localhost${path}`).pathname
  const notFound = (path: string) => errorBody(404, `No endpoint GET ${path}; the list of endpoints is at /swagger`)

  test('an API, docs or health path spelt with repeated slashes, encoded unreserved characters or dot segments is the JSON 404 envelope', async () => {
    for (const path of [
      '//api/v1/nope',
      '///api/v1/nope',
      '//api',
      '/%61pi/v1/x',
      '/%61%70%69/v1/x',
      '/a%70i/v1/x',
      '///health',
      '//health/deep',
      '/%68ealth',
      '//swagger',
      '//swagger/json',
      '/%73wagger/json',
      '/swagger%2Fjson',
      '/./api/v1/x',
      '/me/../api/v1/x',
      // names a real route, but the router saw another path: the JSON 404, never the page
      '//api/v1/auth/me',
      '/%61pi/v1/auth/me',
    ]) {
      const response = await send(path)
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({
        path,
        status: 404,
        type: 'application/json; charset=utf-8',
      })
      expect(response.headers.get('content-security-policy'), path).not.toBe(CONSOLE_CSP)
      expect(await response.json(), path).toEqual(notFound(pathOf(path)))
    }
    const head = await send('//api/v1/nope', 'HEAD')
    expect([head.status, head.headers.get('content-type')]).toEqual([404, 'application/json; charset=utf-8'])
  })

  test('console paths keep the page, however spelt; paths are case-sensitive, so /API is the console\'s (its router says "not found")', async () => {
    for (const path of ['/', '/approvals', '/me/leave', '//me/leave', '/%6De/leave', '/apiary', '/healthy', '/API', '/%41PI/v1/x', '/Health']) {
      const response = await send(path)
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: 'text/html; charset=utf-8',
      })
      expect(await response.text(), path).toBe(PAGE)
    }
  })

  test('over a socket, where the request line reaches the router as sent', async () => {
    const server = app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const port = server.server!.port!
      for (const target of ['//api/v1/nope', '/%61pi/v1/x', '///health', '/./api/v1/x', '/swagger%2Fjson', '//api/v1/auth/me']) {
        const { status, body } = await rawGet(port, target)
        expect({ target, status }).toEqual({ target, status: 404 })
        expect(JSON.parse(body), target).toEqual(notFound(pathOf(target)))
      }
      for (const target of ['/', '/approvals', '//me/leave']) expect(await rawGet(port, target), target).toEqual({ status: 200, body: PAGE })
    } finally {
      await server.stop(true)
    }
  })
})

describe('files that hold personal data are the service user\'s only', () => {
  test('a fresh embedded database: a created data folder is 0700, the file, its -wal and -shm 0600', async () => {
    const folder = join(newDir(), 'data', 'db')
    const path = join(folder, 'workforce.db')
    await withUsualUmask(async () => {
      const changes: string[][] = []
      const database = await openDatabase(`file:${path}`, undefined, { timeoutMs: 5000, maxWrites: 1, tightened: (found) => changes.push(found) })
      try {
        await database.client.execute('CREATE TABLE t (a)')
        await database.client.execute('INSERT INTO t VALUES (1)')
        expect([path, `${path}-wal`, `${path}-shm`].map(modeOf)).toEqual(['0600', '0600', '0600'])
        expect([folder, join(folder, '..')].map(modeOf)).toEqual(['0700', '0700'])
        // nothing was looser than wanted
        expect(changes).toEqual([])
      } finally {
        await database.close()
      }
    })
  })

  test('an existing database left readable by others is closed at start, said once in the log; its folder too when it holds only the data', async () => {
    const dir = newDir()
    const folder = join(dir, 'data')
    const path = join(folder, 'workforce.db')
    await withUsualUmask(async () => {
      mkdirSync(folder, { mode: 0o755 })
      const older = new Database(path)
      older.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (a); INSERT INTO t VALUES (1)')
      mkdirSync(join(folder, 'files'), { mode: 0o755 })
      chmodSync(folder, 0o755)
      expect([folder, path, `${path}-wal`, `${path}-shm`].map(modeOf)).toEqual(['0755', '0644', '0644', '0644'])
      const logger = keepingLogger()
      const config = testConfig(dir, { DATABASE_URL: `file:${path}`, STORAGE_URL: `file:${join(folder, 'files')}` })
      const deps = await prepare(config, { clock: fixedClock(NOW), logger })
      older.close()
      try {
        expect([folder, path, `${path}-wal`, `${path}-shm`].map(modeOf)).toEqual(['0700', '0600', '0600', '0600'])
        const said = logger.warnings.filter((warning) => warning.message.startsWith('closed the data files'))
        expect(said).toEqual([
          {
            message: 'closed the data files to other users: they hold personal data',
            fields: { changes: [`${folder} 0755 → 0700`, `${path} 0644 → 0600`, `${path}-wal 0644 → 0600`, `${path}-shm 0644 → 0600`] },
          },
        ])
      } finally {
        await deps.database.close()
      }
      // the next start finds nothing to change and says nothing
      const again = keepingLogger()
      const next = await prepare(config, { clock: fixedClock(NOW), logger: again })
      await next.database.close()
      expect(again.warnings.filter((warning) => warning.message.startsWith('closed the data files'))).toEqual([])
    })
  })

  test('a folder that holds other things (a project folder, /var/lib) is left open; the database file is still closed', async () => {
    const folder = newDir()
    chmodSync(folder, 0o755)
    writeFileSync(join(folder, 'package.json'), '{}')
    const path = join(folder, 'workforce.db')
    await withUsualUmask(async () => {
      new Database(path).close()
      const changes: string[] = []
      const database = await openDatabase(`file:${path}`, undefined, { timeoutMs: 5000, maxWrites: 1, tightened: (found) => changes.push(...found) })
      await database.close()
      expect([modeOf(folder), modeOf(path)]).toEqual(['0755', '0600'])
      expect(changes).toEqual([`${path} 0644 → 0600`])
    })
  })

  test('a backup archive is 0600 in a 0700 folder; a restore writes its database and files 0600 in 0700 folders', async () => {
    const dir = newDir()
    // a backup copies an embedded file: this one is embedded on a libSQL-server run too
    const t = await startApp({ dir, env: { DATABASE_URL: `file:${join(dir, 'workforce.db')}` } })
    await t.deps.store.put('2024/03/notes.txt', new Blob(['personal']).stream(), 'text/plain')
    t.close()
    await withUsualUmask(async () => {
      // a folder of an older version, left open, holding only archives: closed by the next backup
      const older = join(dir, 'older-backups')
      mkdirSync(older, { mode: 0o755 })
      const first = await writeBackup({ databaseUrl: t.deps.config.databaseUrl, storage: t.deps.config.storage, dir: older, now: new Date(NOW) })
      expect([modeOf(older), modeOf(first.path)]).toEqual(['0700', '0600'])

      const backups = join(dir, 'new', 'backups')
      const result = await writeBackup({ databaseUrl: t.deps.config.databaseUrl, storage: t.deps.config.storage, dir: backups, now: new Date(NOW) })
      expect([modeOf(join(backups, '..')), modeOf(backups), modeOf(result.path)]).toEqual(['0700', '0700', '0600'])
      expect(readdirSync(backups)).toEqual([result.name])

      const target = join(newDir(), 'restored')
      const database = join(target, 'db', 'workforce.db')
      const files = join(target, 'files')
      await restoreBackup(result.path, { databaseUrl: `file:${database}`, storage: { kind: 'file', dir: files } })
      expect({
        target: modeOf(target),
        databaseFolder: modeOf(join(target, 'db')),
        database: modeOf(database),
        files: modeOf(files),
        year: modeOf(join(files, '2024')),
        month: modeOf(join(files, '2024', '03')),
        object: modeOf(join(files, '2024', '03', 'notes.txt')),
      }).toEqual({ target: '0700', databaseFolder: '0700', database: '0600', files: '0700', year: '0700', month: '0700', object: '0600' })
    })
  })
})

describe('X-Forwarded-For from a peer not in TRUSTED_PROXIES', () => {
  let t: TestApp
  let adminToken: string
  let employeeToken: string
  beforeAll(async () => {
    t = await startApp()
    adminToken = await loginAdmin(t.app)
    employeeToken = (await makeUser(t.app, adminToken, 'emma', ['employee'])).token
  })
  afterAll(() => t.close())

  /** The app on a socket of 127.0.0.1, with a logger that keeps its warnings. */
  function serve(trustedProxies: string[]) {
    const logger = keepingLogger()
    const app = createApp({ ...t.deps, logger, config: { ...t.deps.config, trustedProxies } }).listen({ port: 0, hostname: '127.0.0.1' })
    const base = `http://127.0.0.1:${app.server!.port}`
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, { headers })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    return { app, logger, get }
  }

  const healthy = (extra: Record<string, unknown> = {}) => okBody(healthyData(extra), 'healthy')

  test('one warning in the log at the first such request, not one per request; on /health for administrators only', async () => {
    const { app, logger, get } = serve([])
    try {
      expect(await get('/health', { authorization: `Bearer ${adminToken}` })).toEqual({ status: 200, body: healthy({ warnings: [] }) })
      await get('/health', { 'x-forwarded-for': '203.0.113.7' })
      await get('/api/v1/public/departments', { 'x-forwarded-for': '198.51.100.2' })
      await get('/nothing', { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' })
      const warning = render(untrustedForwarding('127.0.0.1'), 'en')
      expect(warning).toBe(
        'X-Forwarded-For arrived from 127.0.0.1, which is not in TRUSTED_PROXIES: every client behind that proxy shares its address, so sign-in throttling counts them as one. If 127.0.0.1 is your reverse proxy, add it to TRUSTED_PROXIES; until then the header is ignored',
      )
      expect(logger.warnings).toEqual([{ message: warning, fields: { peer: '127.0.0.1', trusted_proxies: [] } }])

      expect(await get('/health', { authorization: `Bearer ${adminToken}` })).toEqual({ status: 200, body: healthy({ warnings: [warning] }) })
      expect(await get('/health', { authorization: `Bearer ${adminToken}`, 'accept-language': 'zh' })).toEqual({
        status: 200,
        body: { ...healthy({ warnings: [render(untrustedForwarding('127.0.0.1'), 'zh')] }), message: '正常' },
      })
      // anyone else sees /health as before: anonymous, an employee, a token that is not valid
      expect(await get('/health')).toEqual({ status: 200, body: healthy() })
      expect(await get('/health', { authorization: `Bearer ${employeeToken}` })).toEqual({ status: 200, body: healthy() })
      expect(await get('/health', { authorization: 'Bearer not-a-token' })).toEqual({ status: 200, body: healthy() })
    } finally {
      await app.stop(true)
    }
  })

  test('from a trusted proxy, or without the header, nothing is said', async () => {
    const { app, logger, get } = serve(['127.0.0.1'])
    try {
      await get('/health', { 'x-forwarded-for': '203.0.113.7' })
      await get('/health')
      expect(logger.warnings).toEqual([])
      expect(await get('/health', { authorization: `Bearer ${adminToken}` })).toEqual({ status: 200, body: healthy({ warnings: [] }) })
    } finally {
      await app.stop(true)
    }
  })

  test('in-process (no socket, no peer) and for anonymous callers /health is the same whole body as ever', async () => {
    expect((await req(t.app, 'GET', '/health', { headers: { 'x-forwarded-for': '203.0.113.7' } })).body).toEqual(healthy())
    expect((await req(t.app, 'GET', '/health', { token: adminToken })).body).toEqual(healthy({ warnings: [] }))
  })
})
