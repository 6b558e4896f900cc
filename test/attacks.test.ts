import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { asc, eq } from 'drizzle-orm'
import { createApp, type App, type AppDeps } from '../src/app'
import { prepare } from '../src/bootstrap'
import { auditLogs, files, loginFailures } from '../src/db/schema'
import { fixedClock } from '../src/lib/clock'
import { createLogger } from '../src/lib/logger'
import { isReserved } from '../src/http/console'
import {
  ADMIN_PASSWORD,
  errorBody,
  loginAdmin,
  NOW,
  req,
  startApp,
  tempDir,
  testConfig,
  type Reply,
  type TestApp,
  replyOf,
} from './helpers'
import { startS3 } from './s3-server'

/*
 * Attacks (issue 8): path traversal, header injection through file names, SQL metacharacters,
 * oversized bodies, password guessing, secrets in logs and answers, security headers. Every distinct
 * attack input is tallied per category and printed at the end.
 */

const API = '/api/v1'
const MAX_FILE = 64 * 1024
const MiB = 1024 * 1024
const BOUNDARY = 'attack-boundary-5f2c9e'
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const STORED_NAME = new RegExp(`^${UUID}\\.txt$`)
const OBJECT_KEY = new RegExp(`^2024/03/${UUID}\\.txt$`)
const BAD_FOLDER = errorBody(
  400,
  'folder must be names of letters, digits, spaces, ".", "_" or "-" joined by "/", without "..", a leading "/" or "\\", at most 255 characters',
  { errors: [{ field: 'folder', message: 'is not a valid folder path' }] },
)

// ---- the tally -------------------------------------------------------------------------------------

const tried = new Map<string, Set<string>>()
/** Records one attack input (counted once however many routes or backends it is sent to). */
function tally(category: string, input: unknown): void {
  if (!tried.has(category)) tried.set(category, new Set())
  tried.get(category)!.add(typeof input === 'string' ? input : JSON.stringify(input))
}

// ---- the service under attack ---------------------------------------------------------------------

let root: string
let main: { app: App; deps: AppDeps; clock: ReturnType<typeof fixedClock> }
/** Every line the service logged, at debug level, through the real logger. */
const logLines: string[] = []
/** Passwords and tokens handed out or typed in: none may show where it does not belong. */
const secrets = new Set<string>([ADMIN_PASSWORD])
let admin: string

beforeAll(async () => {
  // the store sits two levels down, so "../" and "../../" from it land in folders this test watches
  root = tempDir('workforce-attacks-')
  mkdirSync(join(root, 'outside'))
  writeFileSync(join(root, 'outside', 'keep.txt'), 'keep')
  const clock = fixedClock(NOW)
  const config = testConfig(root, {
    DATABASE_URL: `file:${join(root, 'db', 'workforce.db')}`,
    STORAGE_URL: `file:${join(root, 'store', 'files')}`,
    MAX_FILE_SIZE: String(MAX_FILE),
    LOG_LEVEL: 'debug',
  })
  const deps = await prepare(config, { clock, logger: createLogger(config.logLevel, (line) => logLines.push(line)) })
  main = { app: createApp(deps), deps, clock }
  const signedIn = await req(main.app, 'POST', `${API}/auth/login`, { body: { username: 'admin', password: ADMIN_PASSWORD } })
  admin = signedIn.body.data.access_token
  secrets.add(admin).add(signedIn.body.data.refresh_token)
}, 20_000)

afterAll(() => {
  main?.deps.database.close()
  if (root) rmSync(root, { recursive: true, force: true })
  const counts = Object.fromEntries([...tried].map(([category, inputs]) => [category, inputs.size]))
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0)
  console.log(`attack inputs tried: ${total} ${JSON.stringify(counts)}`)
})

afterEach(() => main.clock.set(NOW))

// ---- helpers ---------------------------------------------------------------------------------------

/** RFC 5987 value characters: everything else percent-encoded, so any name reaches the parser exactly. */
const rfc5987 = (name: string) => encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

interface FormPart {
  field: string
  /** a text field's value */
  value?: string
  /** a file part: its name (sent as filename*), or the whole disposition tail as is */
  file?: { name?: string; disposition?: string; data?: string | Uint8Array }
}

/** A multipart/form-data body written byte by byte, so names and values arrive exactly as an attacker sends them. */
function multipart(parts: FormPart[]): Uint8Array {
  const chunks: Buffer[] = []
  for (const part of parts) {
    if (part.file) {
      const disposition = part.file.disposition ?? `filename*=UTF-8''${rfc5987(part.file.name ?? 'a.txt')}`
      chunks.push(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"; ${disposition}\r\nContent-Type: text/plain\r\n\r\n`,
        ),
        Buffer.from(part.file.data ?? 'hello'),
      )
    } else {
      chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}`))
    }
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return new Uint8Array(Buffer.concat(chunks))
}

function postForm(
  app: App,
  path: 'upload' | 'batch-upload',
  token: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return app
    .handle(
      new Request(`http://localhost${API}/storage/${path}`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
        duplex: 'half',
      } as RequestInit),
    )
    .then(replyOf)
}

/** A body that arrives in chunks with no Content-Length; `sent()` says how much the service pulled. */
function trickle(total: number, chunk = 64 * 1024, fill = 0x20) {
  let sent = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close()
      const size = Math.min(chunk, total - sent)
      sent += size
      controller.enqueue(new Uint8Array(size).fill(fill))
    },
  })
  return { stream, sent: () => sent }
}

/** `%XX` decoded where it forms UTF-8, kept as is elsewhere. */
const decodeLoosely = (text: string) =>
  text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  )
}

const rowKeys = async (deps: AppDeps) => (await deps.database.db.select({ key: files.storageKey }).from(files)).map((row) => row.key).sort()

/** Apart from the database, the watched tree holds the sentinel and exactly the objects the rows name, each under the store. */
async function assertLocalContained(): Promise<void> {
  const keys = await rowKeys(main.deps)
  for (const key of keys) expect(key).toMatch(OBJECT_KEY)
  const onDisk = filesUnder(root).filter((path) => !path.startsWith('db/'))
  expect(onDisk.sort()).toEqual(['outside/keep.txt', ...keys.map((key) => `store/files/${key}`)].sort())
}

/** A well-formed RFC 6266 attachment header whose RFC 5987 name decodes to `name`. */
function expectDisposition(header: string | null, name: string): void {
  const match = /^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S+)$/.exec(header ?? '')
  expect(match, String(header)).not.toBeNull()
  const [, fallback, encoded] = match!
  // printable ASCII only, and nothing that ends the quoted string, escapes, names a folder or looks like a second parameter
  expect(fallback).toMatch(/^[\x20-\x7e]+$/)
  expect(fallback).not.toMatch(/["\\/%;*]/)
  expect(encoded).toMatch(/^(?:[A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-F]{2})+$/)
  expect(decodeURIComponent(encoded)).toBe(name)
}

const SECURITY_HEADERS = ['cross-origin-resource-policy', 'referrer-policy', 'x-content-type-options', 'x-frame-options']
const CONTENT_HEADERS = [
  'accept-ranges',
  'cache-control',
  'content-disposition',
  'content-length',
  'content-type',
  'etag',
  ...SECURITY_HEADERS,
].sort()

// ---- 1 and 2: path traversal and header injection, on both backends --------------------------------

/** [folder sent, folder kept] — false: refused with the folder 400. */
const FOLDERS: [string, string | null | false][] = [
  ['../', false],
  ['..', false],
  ['..\\', false],
  ['..\\..\\windows', false],
  ['/etc', false],
  ['/etc/passwd', false],
  ['%2e%2e/', false],
  ['%2e%2e%2fetc', false],
  ['..%c0%af', false],
  ['a/../../b', false],
  ['a/..', false],
  ['./a', false],
  ['a/./b', false],
  ['C:\\Windows', false],
  ['C:/Windows', false],
  ['\\\\server\\share', false],
  ['a\u0000b', false],
  ['\u0000', false],
  ['．．/x', false],
  ['\u2024\u2024/x', false],
  ['\u2025/x', false],
  ['~/.ssh', false],
  ['a\r\nb', false],
  ['$(rm -rf ~)', false],
  ['x'.repeat(256), false],
  ['x/'.repeat(200), false],
  ['....//', '....'],
  ['   ', null],
  ['a b/ c.d_e-f', 'a b/ c.d_e-f'],
  ['ünïcødé/文件', 'ünïcødé/文件'],
]

const WRONG_EXTENSION = errorBody(415, 'The name "win.ini" ends in .ini, but its content is text/plain; rename it or send the right file')

/** [file name sent, name kept] — or the refusal. */
const TRAVERSAL_NAMES: [string, string | typeof WRONG_EXTENSION][] = [
  ['../../etc/passwd', 'passwd'],
  ['..\\..\\win.ini', WRONG_EXTENSION],
  ['..\\..\\boot.txt', 'boot.txt'],
  ['/abs', 'abs'],
  ['/etc/shadow.txt', 'shadow.txt'],
  ['a\u0000b.txt', 'ab.txt'],
  ['..', 'unnamed'],
  ['.', 'unnamed'],
  ['...', 'unnamed'],
  ['%2e%2e%2f%2e%2e%2fetc%2fpasswd.txt', '%2e%2e%2f%2e%2e%2fetc%2fpasswd.txt'],
  ['．．／．．／etc／passwd.txt', '．．／．．／etc／passwd.txt'],
  ['C:\\Windows\\system32\\drivers.txt', 'drivers.txt'],
  ['\\\\server\\share\\x.txt', 'x.txt'],
  ['a/../../b.txt', 'b.txt'],
  ['....//....//etc/hosts.txt', 'hosts.txt'],
  ['\u202E../x.txt', 'x.txt'],
  [`${'n'.repeat(5000)}.txt`, `${'n'.repeat(251)}.txt`],
]

/** [file name sent, name kept]: header injection and awkward characters. */
const HEADER_NAMES: [string, string][] = [
  ['q"uote.txt', 'q"uote.txt'],
  ['semi;colon.txt', 'semi;colon.txt'],
  ['x\r\nSet-Cookie: session=evil.txt', 'xSet-Cookie: session=evil.txt'],
  ['x\r\n\r\n<b onmouseover=alert(1)>.txt', 'x<b onmouseover=alert(1)>.txt'],
  ['cr\ronly\nlf.txt', 'cronlylf.txt'],
  ['a.txt"; filename*=UTF-8\'\'evil.exe; x=".txt', 'a.txt"; filename*=UTF-8\'\'evil.exe; x=".txt'],
  ["filename*=UTF-8''evil.txt", "filename*=UTF-8''evil.txt"],
  ['=?UTF-8?B?ZXZpbC5leGU=?=.txt', '=?UTF-8?B?ZXZpbC5leGU=?=.txt'],
  ['résumé naïve.txt', 'résumé naïve.txt'],
  ['文件名 报告.txt', '文件名 报告.txt'],
  ['😀 emoji.txt', '😀 emoji.txt'],
  ['tab\there.txt', 'tabhere.txt'],
  ['nel\u0085line.txt', 'nel\u0085line.txt'],
  ['sep\u2028\u2029.txt', 'sep\u2028\u2029.txt'],
  ['rtl\u202Efdp.txt', 'rtl\u202Efdp.txt'],
  ['full／width＼slash.txt', 'full／width＼slash.txt'],
  ['percent%0d%0aX-Test: 1.txt', 'percent%0d%0aX-Test: 1.txt'],
  ['back`tick$(x)|&.txt', 'back`tick$(x)|&.txt'],
  ['*star*.txt', '*star*.txt'],
]

/** Path ids for the file routes: each must be a 400 or 404, never a file. */
const PATH_IDS = [
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fpackage.json',
  '..%5C..%5Cwin.ini',
  '%00',
  '00000000-0000-4000-8000-000000000000%00',
  '00000000-0000-4000-8000-000000000000%2F..%2F..',
  '00000000-0000-4000-8000-000000000000.txt',
  '....%2F%2F',
  '%C0%AE%C0%AE%2F',
  'a'.repeat(2000),
]

const DOCS_ASSETS = [
  '%2e%2e%2f%2e%2e%2fpackage.json',
  '..%5Cpackage.json',
  '%2Fetc%2Fpasswd',
  '....%2F%2Fpackage.json',
  'swagger-ui.css%00.js',
  'init.js%2F..%2F..%2Fpackage.json',
  '..%252f..%252fpackage.json',
]

describe.each([
  ['local disk', false],
  ['S3', true],
] as const)('file names and folders on %s', (_backend, isS3) => {
  let app: App
  let deps: AppDeps
  let token: string
  let own: TestApp | undefined
  let s3: Awaited<ReturnType<typeof startS3>> | undefined
  let s3Top: string[] = []

  beforeAll(async () => {
    if (!isS3) {
      ;({ app, deps } = main)
      token = admin
      return
    }
    s3 = await startS3()
    own = await startApp({ env: { ...s3.env, MAX_FILE_SIZE: String(MAX_FILE) } })
    ;({ app, deps } = own)
    token = await loginAdmin(app)
    s3Top = readdirSync(s3.dir).sort()
  }, 20_000)

  afterAll(async () => {
    own?.close()
    await s3?.stop()
  })

  /** Nothing was written outside the store: on disk for the local store; in the bucket, and beside it, for S3. */
  async function assertContained() {
    if (!isS3) return assertLocalContained()
    const keys: string[] = []
    for await (const object of deps.store.list()) keys.push(object.key)
    expect(keys.sort()).toEqual(await rowKeys(deps))
    for (const key of keys) expect(key).toMatch(OBJECT_KEY)
    expect(readdirSync(s3!.dir).sort()).toEqual(s3Top)
  }

  test('folder values with traversal, absolute paths, NUL, look-alike dots and long names are refused or kept as plain labels', async () => {
    for (const [folder, kept] of FOLDERS) {
      tally('path traversal', `folder ${folder}`)
      const before = await rowKeys(deps)
      const single = await postForm(
        app,
        'upload',
        token,
        multipart([
          { field: 'folder', value: folder },
          { field: 'file', file: {} },
        ]),
      )
      // the folder is checked the same way on both stores: the batch route is tried on the local one
      const batch = isS3
        ? undefined
        : await postForm(
            app,
            'batch-upload',
            token,
            multipart([
              { field: 'files', file: { name: 'one.txt' } },
              { field: 'folder', value: folder },
              { field: 'files', file: { name: 'two.txt' } },
            ]),
          )
      if (batch && kept !== false) expect(batch.body.data.success, JSON.stringify(folder)).toBe(2)
      const label = JSON.stringify(folder).slice(0, 40)
      if (kept === false) {
        // a NUL is refused as such before the folder rules look at the value
        const refusal = folder.includes('\u0000')
          ? errorBody(400, 'The form field "folder" contains the NUL character (\\u0000)')
          : BAD_FOLDER
        expect([single.status, single.body], label).toEqual([400, refusal])
        if (batch) expect([batch.status, batch.body], label).toEqual([400, refusal])
        expect(await rowKeys(deps), label).toEqual(before)
      } else {
        expect([single.status, single.body.data.folder, single.body.data.filename], label).toEqual([
          201,
          kept,
          expect.stringMatching(STORED_NAME),
        ])
        for (const result of batch?.body.data.results ?? []) {
          const info = await req(app, 'GET', `${API}/storage/file-info?file_id=${result.id}`, { token })
          expect(info.body.data.folder, label).toBe(kept)
        }
      }
      await assertContained()
    }
  }, 30_000)

  test('file names with paths are cut to their last part, alone and in a batch; the stored name is always <uuid>.txt', async () => {
    for (const [name, kept] of TRAVERSAL_NAMES) {
      tally('path traversal', `file name ${name.slice(0, 60)}`)
      const reply = await postForm(app, 'upload', token, multipart([{ field: 'file', file: { name } }]))
      if (typeof kept !== 'string') {
        expect([reply.status, reply.body], name).toEqual([kept.code, kept])
        continue
      }
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      expect([reply.body.data.original_name, reply.body.data.filename]).toEqual([kept, expect.stringMatching(STORED_NAME)])
    }
    const batch = await postForm(
      app,
      'batch-upload',
      token,
      multipart(TRAVERSAL_NAMES.map(([name]) => ({ field: 'files', file: { name } }))),
    )
    expect(batch.status).toBe(200)
    expect(
      batch.body.data.results.map((result: { original_name: string; status: string }) => [result.original_name, result.status]),
    ).toEqual(TRAVERSAL_NAMES.map(([name, kept]) => (typeof kept === 'string' ? [kept, 'success'] : [name.split('\\').pop(), 'failed'])))
    for (const result of batch.body.data.results) if (result.status === 'success') expect(result.filename).toMatch(STORED_NAME)
    await assertContained()
  }, 30_000)

  test('names with CR/LF, quotes, semicolons, filename*= tricks and non-ASCII: one well-formed Content-Disposition, nothing injected, the name round-trips', async () => {
    const cases: { sent: string; kept: string; disposition?: string }[] = [
      ...HEADER_NAMES.map(([sent, kept]) => ({ sent, kept })),
      // bytes that are not UTF-8 (a lone surrogate's encoding) become U+FFFD, never an exception
      { sent: 'lone surrogate bytes', kept: '\uFFFD\uFFFD\uFFFD.txt', disposition: "filename*=UTF-8''%ED%A0%80.txt" },
    ]
    for (const { sent, kept, disposition } of cases) {
      tally('header injection', sent)
      const upload = await postForm(app, 'upload', token, multipart([{ field: 'file', file: { name: sent, disposition } }]))
      expect(upload.status, JSON.stringify(upload.body)).toBe(201)
      expect(upload.body.data.original_name).toBe(kept)
      const info = await req(app, 'GET', `${API}/storage/file-info?file_id=${upload.body.data.id}`, { token })
      expect(info.body.data.original_name).toBe(kept)

      const content = await app.handle(
        new Request(`http://localhost${API}/storage/files/${upload.body.data.id}/content`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      )
      expect(content.status).toBe(200)
      expect([...content.headers.keys()].sort()).toEqual(CONTENT_HEADERS)
      expectDisposition(content.headers.get('content-disposition'), kept)
      expect(await content.text()).toBe('hello')

      if (isS3) {
        // the presigned S3 link asks the bucket to send the same header
        const link = await req(app, 'POST', `${API}/storage/presigned-url`, { token, body: { file_id: upload.body.data.id } })
        const direct = await fetch(link.body.data.presigned_url)
        expect(direct.status).toBe(200)
        expect(direct.headers.get('content-disposition')).toBe(content.headers.get('content-disposition'))
        expect(direct.headers.get('set-cookie')).toBeNull()
        expect(await direct.text()).toBe('hello')
      }
    }
    await assertContained()
  }, 30_000)

  test('a raw CR/LF inside the quoted filename breaks the part: 400, nothing stored', async () => {
    tally('header injection', 'raw CR/LF in filename=""')
    const before = await rowKeys(deps)
    const reply = await postForm(
      app,
      'upload',
      token,
      multipart([{ field: 'file', file: { disposition: 'filename="x\r\nX-Injected: 1.txt"' } }]),
    )
    expect([reply.status, reply.body]).toEqual([
      400,
      errorBody(400, 'No file: send it in the multipart field "file"', { errors: [{ field: 'file', message: 'is required' }] }),
    ])
    expect(await rowKeys(deps)).toEqual(before)
  })

  if (!isS3) {
    test('traversal in the id of content, file-info, delete, batch-delete and presigned-url: 400 or 404, never a file, nothing removed', async () => {
      const before = filesUnder(root).filter((path) => !path.startsWith('db/'))
      for (const id of PATH_IDS) {
        tally('path traversal', `file id ${id.slice(0, 60)}`)
        const decoded = decodeLoosely(id)
        const replies = [
          await req(app, 'GET', `${API}/storage/files/${id}/content`, { token }),
          await req(app, 'GET', `${API}/storage/file-info?file_id=${id}`, { token }),
          await req(app, 'DELETE', `${API}/storage/delete`, { token, body: { file_id: decoded } }),
          await req(app, 'POST', `${API}/storage/presigned-url`, { token, body: { file_id: decoded } }),
        ]
        for (const reply of replies) {
          expect([400, 404], `${id}: ${JSON.stringify(reply.body)}`).toContain(reply.status)
          expect(reply.body).toMatchObject({ code: reply.status, data: null })
        }
        const batch = await req(app, 'DELETE', `${API}/storage/batch-delete`, { token, body: { file_ids: [decoded] } })
        if (batch.status === 200) expect(batch.body.data).toMatchObject({ total: 1, success: 0, failed: 1 })
        else expect(batch.status).toBe(400)
      }
      expect(filesUnder(root).filter((path) => !path.startsWith('db/'))).toEqual(before)
    })

    test('traversal in the docs asset name: 404, never a file outside the allowed list', async () => {
      for (const asset of DOCS_ASSETS) {
        tally('path traversal', `docs asset ${asset}`)
        const reply = await req(app, 'GET', `/swagger/assets/${asset}`)
        expect(reply.status, asset).toBe(404)
        expect(reply.body).toMatchObject({ code: 404, data: null })
      }
    })
  }
})

// ---- 3: SQL metacharacters -------------------------------------------------------------------------

const SQL_PAYLOADS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '%',
  '_',
  '%%',
  '%_%',
  '\\',
  '\\%',
  '\\_',
  '"',
  "'",
  "'; DROP TABLE users; --",
  '"; DROP TABLE users; --',
  "') UNION SELECT username, password_hash FROM users --",
  '1; SELECT sqlite_version()',
  '*',
  '?',
  '[a-z]',
  '$1',
  ':name',
  '  %  ',
  "O'Brien",
  '50%',
  'under_score',
  'back\\slash',
  'É',
  'école',
  'École',
  'ärzte',
  'Ärzte',
  '😀',
  '文件',
  '\u0000',
  'x\u0000',
  '\u202E',
]

/** The payloads sent to every query field of every route (the free-text filters get all of them). */
const SWEEP_PAYLOADS = [
  "' OR 1=1 --",
  '%',
  '_',
  '\\',
  '"; DROP TABLE users; --',
  "') UNION SELECT username, password_hash FROM users --",
  '1; SELECT sqlite_version()',
  'É',
  '😀',
  '\u0000',
  '  %  ',
]

/** Names that hold what the payloads look for, next to plain ones: a search that matches everything shows. */
const SEED_NAMES = [
  '50% Off Ltd',
  'Under_Score Co',
  'Back\\slash Inc',
  "O'Brien & Sons",
  'École Normale',
  'Ärzte GmbH',
  '文件 Holdings',
  "Drop'); DROP TABLE companies; --",
  'Plain Co',
  'Another Plain Co',
]

/** Free-text filters that match a part of some columns, ignoring case for A–Z. */
const CONTAINS_FILTERS = [
  { path: '/admin/users', param: 'search', key: 'list', columns: ['username', 'name', 'phone', 'email'] },
  { path: '/admin/companies', param: 'search', key: 'list', columns: ['name'] },
  { path: '/admin/employees', param: 'search', key: 'list', columns: ['name', 'employee_no', 'phone', 'email'] },
  { path: '/admin/roles', param: 'search', key: 'list', columns: ['name', 'display_name'] },
  { path: '/admin/permissions', param: 'search', key: 'list', columns: ['name', 'display_name', 'description'] },
  { path: '/admin/departments', param: 'name', key: 'departments', columns: ['name'] },
  { path: '/admin/attendance/groups', param: 'search', key: 'groups', columns: ['name'] },
  { path: '/storage/files', param: 'search', key: 'files', columns: ['original_name', 'description'] },
]

/** Filters that match a whole value exactly. */
const EXACT_FILTERS = [
  { path: '/admin/permissions', param: 'resource', key: 'list' },
  { path: '/admin/audit-logs', param: 'resource', key: 'list' },
  { path: '/admin/audit-logs', param: 'action', key: 'list' },
  { path: '/storage/files', param: 'mime_type', key: 'files' },
]

type Row = Record<string, unknown>

const foldAscii = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
const totalOf = (data: { total?: number; pagination?: { total_items?: number; total?: number } }) =>
  data.total ?? data.pagination?.total_items ?? data.pagination?.total ?? 0

/** Every row of a list, page by page. */
async function everyRow(path: string, key: string): Promise<Row[]> {
  const rows: Row[] = []
  for (let page = 1; ; page++) {
    const reply = await req(main.app, 'GET', `${API}${path}${path.includes('?') ? '&' : '?'}page=${page}&page_size=100`, { token: admin })
    expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(200)
    const items = reply.body.data[key] as Row[]
    rows.push(...items)
    if (items.length === 0 || rows.length >= totalOf(reply.body.data)) return rows
  }
}

const idsOf = (rows: Row[]) => rows.map((row) => String(row.id)).sort()

describe('SQL metacharacters', () => {
  let tablesBefore: string[]
  const tables = async () =>
    (
      await main.deps.database.client.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index', 'trigger') ORDER BY name")
    ).rows.map((row) => String(row.name))

  beforeAll(async () => {
    const post = async (path: string, body: unknown) => {
      const reply = await req(main.app, 'POST', `${API}${path}`, { token: admin, body })
      if (reply.status !== 201) throw new Error(`seeding ${path} failed: ${JSON.stringify(reply.body)}`)
      return reply.body.data
    }
    let company = 0
    for (const name of SEED_NAMES) {
      company = (await post('/admin/companies', { name })).id
      await post('/admin/departments', { name })
    }
    await post('/admin/attendance/groups', { name: '50% Night_Shift', company_id: company })
    await post('/admin/attendance/groups', { name: 'École Day', company_id: company })
    await post('/admin/attendance/groups', { name: 'Plain Group', company_id: company })
    await post('/admin/employees', { name: '50% Zoë', employee_no: 'E_001', email: "o'brien@example.test" })
    await post('/admin/employees', { name: 'École Ärzte', employee_no: 'E-002', phone: '+1 555 0100' })
    await post('/admin/employees', { name: 'Plain Person', employee_no: 'E003' })
    await post('/admin/roles', { name: 'pct_role', display_name: '100% École' })
    await post('/admin/roles', { name: 'plain_role', display_name: "O'Brien \\ crew" })
    await post('/admin/permissions', { name: 'reports:export_all', display_name: '50% of _reports_', description: "Ärzte' OR 1=1" })
    await post('/admin/users', {
      username: 'under_score',
      password: 'under-score-password-1',
      name: "50% Zoë O'Brien",
      email: 'zoe@example.test',
    })
    secrets.add('under-score-password-1')
    for (const [name, description] of [
      ['fifty%.txt', "O'Brien"],
      ['under_score.txt', 'École'],
      ['plain.txt', '\\back'],
    ])
      expect(
        (
          await postForm(
            main.app,
            'upload',
            admin,
            multipart([
              { field: 'description', value: description },
              { field: 'file', file: { name } },
            ]),
          )
        ).status,
      ).toBe(201)
    tablesBefore = await tables()
  }, 20_000)

  test('every free-text filter matches each character literally: % and _ are not wildcards, quotes end nothing, NUL ends nothing', async () => {
    for (const { path, param, key, columns } of CONTAINS_FILTERS) {
      const all = await everyRow(path, key)
      // the seeds guarantee rows without "%", so a wildcard would show
      expect(all.filter((row) => !columns.some((column) => String(row[column] ?? '').includes('%'))).length, path).toBeGreaterThan(0)
      for (const payload of SQL_PAYLOADS) {
        tally('SQL metacharacters', payload)
        const needle = foldAscii(payload.trim())
        const expected = all.filter(
          (row) => needle === '' || columns.some((column) => foldAscii(String(row[column] ?? '')).includes(needle)),
        )
        const found = await everyRow(`${path}?${param}=${encodeURIComponent(payload)}`, key)
        expect(idsOf(found), `${path}?${param}=${JSON.stringify(payload)}`).toEqual(idsOf(expected))
      }
    }
  }, 20_000)

  test('exact filters find nothing for a payload, and say so with 200', async () => {
    for (const { path, param, key } of EXACT_FILTERS)
      for (const payload of SQL_PAYLOADS) {
        const reply = await req(main.app, 'GET', `${API}${path}?${param}=${encodeURIComponent(payload)}&page_size=100`, { token: admin })
        const what = `${path}?${param}=${JSON.stringify(payload)}`
        // a payload longer than the field allows is a 400 naming the field
        if (reply.status === 400)
          expect(reply.body.errors, what).toEqual([
            { field: param, message: expect.stringMatching(/^must be at most \d+ characters long$/) },
          ])
        else expect([reply.status, reply.body.data?.[key]], what).toEqual([200, []])
      }
  })

  test('every query field of every route, and the text path parameters: 200 or a 4xx envelope, never a 500', async () => {
    const fields = main.app.routes.flatMap((route) => {
      const properties = (route.hooks.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
      return Object.keys(properties).map((field) => ({ route, field }))
    })
    expect(fields.length).toBeGreaterThan(40)
    const paths = main.app.routes.filter((route) => route.method === 'GET').map((route) => route.path)
    const textParams = paths.filter((path) => /:(role_name|permission_name|month)\b/.test(path))
    expect(textParams.length).toBe(5)
    const check = (reply: Reply, what: string) => {
      expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBeLessThan(500)
      expect([200, 400, 403, 404], what).toContain(reply.status)
      expect(reply.body).toMatchObject({ code: reply.status, timestamp: expect.any(String) })
      if (reply.status !== 200) expect(reply.body.data).toBeNull()
    }
    for (const payload of SWEEP_PAYLOADS) {
      for (const { route, field } of fields) {
        const path = route.path.replace(':id', '00000000-0000-4000-8000-000000000000')
        check(
          await req(main.app, route.method, `${path}?${field}=${encodeURIComponent(payload)}`, { token: admin }),
          `${route.path}?${field}=${payload}`,
        )
      }
      for (const path of textParams) {
        const concrete = path.replace(/:\w+/, encodeURIComponent(payload))
        check(await req(main.app, 'GET', concrete, { token: admin }), `${path} ${payload}`)
      }
    }
    expect(await tables()).toEqual(tablesBefore)
  }, 20_000)

  test('payloads in JSON bodies are stored and read back as plain text; a payload as username signs nobody in', async () => {
    for (const name of ["Robert'); DROP TABLE companies; --", '"; DELETE FROM users; --', '%_\\ literal']) {
      tally('SQL metacharacters', name)
      const created = await req(main.app, 'POST', `${API}/admin/companies`, { token: admin, body: { name } })
      expect([created.status, created.body.data?.name]).toEqual([201, name])
      const read = await req(main.app, 'GET', `${API}/admin/companies/${created.body.data.id}`, { token: admin })
      expect(read.body.data.name).toBe(name)
    }
    // with the right password: a LIKE or a broken quote would let these in as admin
    for (const username of ["admin' --", '_dmin', '%']) {
      tally('SQL metacharacters', `username ${username}`)
      const reply = await req(main.app, 'POST', `${API}/auth/login`, { body: { username, password: ADMIN_PASSWORD } })
      expect([reply.status, reply.body]).toEqual([401, errorBody(401, 'Wrong username or password')])
    }
    expect(await tables()).toEqual(tablesBefore)
    // the administrator and the one seeded user: nobody was dropped or added
    const users = await req(main.app, 'GET', `${API}/admin/users?page_size=100`, { token: admin })
    expect(users.body.data.list.map((user: { username: string }) => user.username)).toEqual(['admin', 'under_score'])
  }, 20_000)
  // KNOWN BUG (text validation in src/http/models.ts, not ours to fix): a NUL in a JSON text field is stored,
  // but libSQL reads text only up to the NUL, so "Acme\u0000 Evil" comes back as "Acme" and a second company
  // named "Acme" passes the unique index: two companies show the same name. Flip to `test` once text
  // fields refuse control characters (or keep them whole).
  test('a NUL inside a JSON text field is refused, or kept whole; never cut short', async () => {
    tally('SQL metacharacters', 'NUL inside a company name')
    const created = await req(main.app, 'POST', `${API}/admin/companies`, { token: admin, body: { name: 'Nul\u0000 Evil Co' } })
    if (created.status !== 400) expect([created.status, created.body.data?.name]).toEqual([201, 'Nul\u0000 Evil Co'])
  })
})

// ---- 4: oversized bodies ----------------------------------------------------------------------------

const TOO_LARGE_JSON = errorBody(413, 'The JSON body is larger than 1 MiB; send less data per request')
const TOO_LARGE_FILE = errorBody(413, 'The file is larger than the limit of 64.00 KB (65536 bytes)')

describe('oversized bodies', () => {
  const companies = async () => (await req(main.app, 'GET', `${API}/admin/companies?page_size=1`, { token: admin })).body.data.total

  test('JSON: exactly 1 MiB is read, one byte more is a 413; a small declared length does not let a large body through', async () => {
    const before = await companies()
    const body = (name: string, size: number) => {
      const text = JSON.stringify({ name, pad: ' '.repeat(size - JSON.stringify({ name, pad: '' }).length) })
      expect(text.length).toBe(size)
      return text
    }
    tally('oversized bodies', 'JSON of exactly 1 MiB')
    const atLimit = await req(main.app, 'POST', `${API}/admin/companies`, { token: admin, raw: body('At The Limit', MiB) })
    expect(atLimit.status).toBe(201)
    tally('oversized bodies', 'JSON of 1 MiB + 1 byte')
    const over = await req(main.app, 'POST', `${API}/admin/companies`, { token: admin, raw: body('Over The Limit', MiB + 1) })
    expect([over.status, over.body]).toEqual([413, TOO_LARGE_JSON])

    tally('oversized bodies', 'JSON with Content-Length 10 and 3 MiB of body')
    const lying = trickle(3 * MiB)
    const lied = await main.app.handle(
      new Request(`http://localhost${API}/admin/companies`, {
        method: 'POST',
        body: lying.stream,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-length': '10' },
        duplex: 'half',
      } as RequestInit),
    )
    expect([lied.status, await lied.json()]).toEqual([413, TOO_LARGE_JSON])
    // reading stopped soon after the limit
    expect(lying.sent()).toBeLessThanOrEqual(MiB + 128 * 1024)

    tally('oversized bodies', 'JSON declaring 10 GB')
    const declared = await main.app.handle(
      new Request(`http://localhost${API}/admin/companies`, {
        method: 'POST',
        body: '{}',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-length': String(10 * 1024 ** 3) },
      }),
    )
    expect(declared.status).toBe(413)

    tally('oversized bodies', 'JSON of 2 MiB to sign-in, without a token')
    const signIn = await req(main.app, 'POST', `${API}/auth/login`, {
      raw: JSON.stringify({ username: 'admin', password: 'x'.repeat(2 * MiB) }),
    })
    expect([signIn.status, signIn.body]).toEqual([413, TOO_LARGE_JSON])
    expect(await companies()).toBe(before + 1)
  })

  test('JSON nested deeper than any request needs is a 400 at once: in a known field, an unknown one, or as the whole body; with or without a token', async () => {
    const object = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
    const array = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
    const cases: [string, string, string, string | undefined][] = [
      ['100,000-deep object in a known field of sign-in', `${API}/auth/login`, `{"username":${object(100_000)},"password":"x"}`, undefined],
      ['6,000-deep object in a known field of sign-in', `${API}/auth/login`, `{"username":${object(6_000)},"password":"x"}`, undefined],
      ['100,000-deep object in an unknown field', `${API}/admin/companies`, `{"name":"Deep Co","x":${object(100_000)}}`, admin],
      [
        '100,000-deep array in a known array field',
        `${API}/admin/users`,
        `{"username":"deep","password":"deep-password-1","name":"D","roles":${array(100_000)}}`,
        admin,
      ],
      ['400,000-deep array as the whole body', `${API}/admin/companies`, array(400_000), admin],
    ]
    for (const [what, path, raw, token] of cases) {
      tally('oversized bodies', what)
      const started = performance.now()
      const reply = await req(main.app, 'POST', path, { token, raw })
      // before the depth check a deep known field cost seconds of CPU (quadratic) and then a 500
      expect(performance.now() - started, what).toBeLessThan(1000)
      expect([reply.status, reply.body], what).toEqual([400, errorBody(400, expect.stringContaining('levels deep'))])
    }
    const deepCo = await req(main.app, 'GET', `${API}/admin/companies?search=Deep%20Co`, { token: admin })
    expect(deepCo.body.data.total).toBe(0)
  })

  // KNOWN BUG (src/http/json-body.ts): only application/json bodies are capped; Elysia reads any other
  // type whole before the route (and its auth) runs, so anyone can make the service buffer up to
  // Bun's maxRequestBodySize (20 × MAX_FILE_SIZE + 1 MiB, about 2 GB by default). Flip to `test` once fixed.
  test('a 4 MiB body of another type to a JSON route is refused after at most about 1 MiB', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
      `multipart/form-data; boundary=${BOUNDARY}`,
    ]) {
      tally('oversized bodies', `4 MiB of ${type} to sign-in`)
      const body = trickle(4 * MiB, 64 * 1024, 0x61)
      const response = await main.app.handle(
        new Request(`http://localhost${API}/auth/login`, {
          method: 'POST',
          body: body.stream,
          headers: { 'content-type': type },
          duplex: 'half',
        } as RequestInit),
      )
      expect([413, 415]).toContain(response.status)
      expect(body.sent()).toBeLessThanOrEqual(MiB + 128 * 1024)
    }
  })

  test('multipart: a file over MAX_FILE_SIZE is a 413 while streaming, also with no or a lying Content-Length; nothing stored', async () => {
    const before = await rowKeys(main.deps)
    const oversized = multipart([{ field: 'file', file: { name: 'big.txt', data: 'a'.repeat(MAX_FILE + 1) } }])
    tally('oversized bodies', 'file of MAX_FILE_SIZE + 1, chunked')
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < oversized.length; at += 16 * 1024) controller.enqueue(oversized.slice(at, at + 16 * 1024))
        controller.close()
      },
    })
    expect(await postForm(main.app, 'upload', admin, chunked)).toMatchObject({ status: 413, body: TOO_LARGE_FILE })
    tally('oversized bodies', 'file of MAX_FILE_SIZE + 1, Content-Length 100')
    expect(await postForm(main.app, 'upload', admin, oversized, { 'content-length': '100' })).toMatchObject({
      status: 413,
      body: TOO_LARGE_FILE,
    })
    tally('oversized bodies', 'batch with a file of 1 MiB among small ones')
    const batch = await postForm(
      main.app,
      'batch-upload',
      admin,
      multipart([
        { field: 'files', file: { name: 'small.txt' } },
        { field: 'files', file: { name: 'huge.txt', data: 'a'.repeat(MiB) } },
      ]),
    )
    expect(batch.body.data.results.map((result: { status: string }) => result.status)).toEqual(['success', 'failed'])
    expect(batch.body.data.results[1].error).toBe(TOO_LARGE_FILE.message)
    expect((await rowKeys(main.deps)).length).toBe(before.length + 1)
    await assertLocalContained()
  })

  test('multipart: 100 files in a batch, 30 text fields, 10,000 empty fields, a field over 64 KiB or one holding NUL → 400; nothing stored', async () => {
    const before = await rowKeys(main.deps)
    const cases: [string, 'upload' | 'batch-upload', FormPart[], string][] = [
      [
        '100 files in a batch',
        'batch-upload',
        Array.from({ length: 100 }, (_, i) => ({ field: 'files', file: { name: `f${i}.txt` } })),
        'Send at most 20 files per batch',
      ],
      [
        '30 text fields, the bad folder last',
        'upload',
        [
          { field: 'file', file: {} },
          ...Array.from({ length: 29 }, (_, i) => ({ field: `junk${i}`, value: 'x' })),
          { field: 'folder', value: '../../outside' },
        ],
        'Too many form fields: send at most 20 besides the files',
      ],
      [
        '10,000 empty fields before the file',
        'batch-upload',
        [...Array.from({ length: 10_000 }, () => ({ field: 'x', value: '' })), { field: 'files', file: {} }],
        'Too many form fields: send at most 20 besides the files',
      ],
      [
        'a description of 1 MiB',
        'upload',
        [
          { field: 'file', file: {} },
          { field: 'description', value: 'd'.repeat(MiB) },
        ],
        'The form field "description" is longer than 64 KiB',
      ],
      [
        'a folder of 100 KiB',
        'upload',
        [
          { field: 'folder', value: 'f'.repeat(100 * 1024) },
          { field: 'file', file: {} },
        ],
        'The form field "folder" is longer than 64 KiB',
      ],
      [
        'an unknown field of 2 MiB',
        'batch-upload',
        [
          { field: 'files', file: {} },
          { field: 'junk', value: 'j'.repeat(2 * MiB) },
        ],
        'The form field "junk" is longer than 64 KiB',
      ],
      [
        'a NUL inside the description',
        'upload',
        [
          { field: 'file', file: {} },
          { field: 'description', value: 'before\u0000after' },
        ],
        'The form field "description" contains the NUL character (\\u0000)',
      ],
    ]
    for (const [what, path, parts, message] of cases) {
      tally('oversized bodies', what)
      const reply = await postForm(main.app, path, admin, multipart(parts))
      expect([reply.status, reply.body], what).toEqual([400, errorBody(400, message)])
      expect(await rowKeys(main.deps), what).toEqual(before)
    }
    await assertLocalContained()
  })
})

// ---- 5: password guessing ---------------------------------------------------------------------------

describe('password guessing', () => {
  const PASSWORD = 'victim-password-1'
  const attempt = (username: string, password: string) => req(main.app, 'POST', `${API}/auth/login`, { body: { username, password } })
  const failuresOf = async (key: string) =>
    (await main.deps.database.db.select().from(loginFailures).where(eq(loginFailures.usernameKey, key))).length

  beforeAll(async () => {
    secrets.add(PASSWORD)
    const created = await req(main.app, 'POST', `${API}/admin/users`, {
      token: admin,
      body: { username: 'victim', password: PASSWORD, name: 'Victim' },
    })
    expect(created.status).toBe(201)
  }, 10_000)

  test('eleven guesses at once on one instance: two are taken (one checked, one waiting), nine are refused before any write', async () => {
    tally('password guessing', '11 parallel wrong passwords, one instance')
    const burst = await Promise.all(Array.from({ length: 11 }, (_, i) => attempt('stranger-at-once', `wrong-password-${i}`)))
    expect(burst.map((reply) => reply.status).sort()).toEqual([401, 401, ...Array(9).fill(429)])
    const refused = burst.find((reply) => reply.status === 429)!
    expect([refused.body, refused.headers.get('retry-after')]).toEqual([
      errorBody(429, 'Too many sign-ins from your address at once; wait for their answers first'),
      '1',
    ])
    expectSecurityHeaders(refused.headers, 'a refused burst')
    expect(await failuresOf('stranger-at-once')).toBe(2)
  }, 30_000)

  test('eleven guesses at once over six instances sharing the database: exactly ten are checked, the eleventh is a 429; the lock holds for any case of the name and for the right password', async () => {
    tally('password guessing', '11 parallel wrong passwords, six instances')
    // each instance bounds its own hashes (main takes one guess, the others two each, so none waits);
    // the database's one-statement count bounds them all
    const others = await Promise.all(
      Array.from({ length: 5 }, () =>
        prepare(
          testConfig(root, {
            DATABASE_URL: `file:${join(root, 'db', 'workforce.db')}`,
            STORAGE_URL: `file:${join(root, 'store', 'files')}`,
            LOGIN_CONCURRENCY: '2',
          }),
          { clock: main.clock },
        ),
      ),
    )
    try {
      const instances = others.map((deps) => createApp(deps))
      const burst = await Promise.all(
        Array.from({ length: 11 }, (_, i) =>
          req(i === 0 ? main.app : instances[i % instances.length], 'POST', `${API}/auth/login`, {
            body: { username: 'victim', password: `wrong-password-${i}` },
          }),
        ),
      )
      expect(burst.map((reply) => reply.status).sort()).toEqual([...Array(10).fill(401), 429])
      expect(await failuresOf('victim')).toBe(10)
      const refused = burst.find((reply) => reply.status === 429)!
      expect(refused.body).toEqual(errorBody(429, 'Too many failed sign-ins for "victim" from your address; try again in 15 minute(s)'))
      expectSecurityHeaders(refused.headers, '429')
    } finally {
      for (const deps of others) deps.database.close()
    }

    for (const username of ['victim', 'VICTIM', 'Victim']) {
      tally('password guessing', `right password as ${username} while locked`)
      const reply = await attempt(username, PASSWORD)
      expect([reply.status, reply.body, reply.headers.get('retry-after')]).toEqual([
        429,
        errorBody(429, `Too many failed sign-ins for "${username}" from your address; try again in 15 minute(s)`),
        '900',
      ])
    }
    // padding names nobody: the right password with a space is a plain failure, not a way around the lock
    for (const username of [' victim']) {
      tally('password guessing', `right password as ${JSON.stringify(username)}`)
      expect((await attempt(username, PASSWORD)).body).toEqual(errorBody(401, 'Wrong username or password'))
    }

    main.clock.advance(15 * 60_000 - 1_000)
    const last = await attempt('victim', PASSWORD)
    expect([last.status, last.headers.get('retry-after')]).toEqual([429, '1'])
    main.clock.advance(1_000)
    const free = await attempt('victim', PASSWORD)
    expect(free.status).toBe(200)
    secrets.add(free.body.data.access_token).add(free.body.data.refresh_token)
    expect(await failuresOf('victim')).toBe(0)
  }, 30_000)
})

// ---- 6: secrets --------------------------------------------------------------------------------------

/** Keys that would mean a secret left the database. */
const SECRET_FIELDS = /"(?:password_hash|passwordHash|token_hash|tokenHash|token_version|tokenVersion|jwt_secret)"/

function expectNoSecrets(text: string, what: string, allowTokens = false): void {
  for (const secret of secrets) {
    const isToken = !secret.includes('-password-') && secret !== ADMIN_PASSWORD
    if (allowTokens && isToken) continue
    expect(text.includes(secret), `${what} holds ${secret.slice(0, 12)}…`).toBe(false)
  }
  expect(text, what).not.toContain('$argon2')
  expect(text, what).not.toMatch(SECRET_FIELDS)
  if (!allowTokens) expect(text, what).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/)
}

describe('secrets', () => {
  const replies: { what: string; reply: Reply; issuesTokens: boolean }[] = []
  let carol: { id: number; token: string } = { id: 0, token: '' }

  async function call(what: string, method: string, path: string, options: Parameters<typeof req>[3] = {}, issuesTokens = false) {
    tally('secrets', what)
    const reply = await req(main.app, method, `${API}${path}`, options)
    replies.push({ what, reply, issuesTokens })
    if (issuesTokens && reply.status === 200) secrets.add(reply.body.data.access_token).add(reply.body.data.refresh_token)
    return reply
  }

  test('sign-ins, refreshes, password changes, accounts made with passwords, failures and failing writes: no secret in any log line', async () => {
    for (const password of [
      'carol-password-1',
      'carol-password-2',
      'carol-password-3',
      'carol-password-4',
      'dave-password-1',
      'erin-password-1',
      'sh0rt!x',
      'typo-password-9',
    ])
      secrets.add(password)
    const user = await call('create carol', 'POST', '/admin/users', {
      token: admin,
      body: { username: 'carol', password: 'carol-password-1', name: 'Carol' },
    })
    expect(user.status).toBe(201)
    expect(
      (
        await call('create dave as an employee', 'POST', '/admin/employees', {
          token: admin,
          body: { name: 'Dave', username: 'dave', password: 'dave-password-1' },
        })
      ).status,
    ).toBe(201)
    const signIn = await call('carol signs in', 'POST', '/auth/login', { body: { username: 'carol', password: 'carol-password-1' } }, true)
    const refreshed = await call(
      'carol refreshes',
      'POST',
      '/auth/refresh',
      { body: { refresh_token: signIn.body.data.refresh_token } },
      true,
    )
    expect(refreshed.status).toBe(200)
    expect(
      (await call('a used refresh token', 'POST', '/auth/refresh', { body: { refresh_token: signIn.body.data.refresh_token } })).status,
    ).toBe(401)
    const changed = await call(
      'carol changes her password',
      'PUT',
      '/auth/password',
      { token: refreshed.body.data.access_token, body: { old_password: 'carol-password-1', new_password: 'carol-password-2' } },
      true,
    )
    expect(changed.status).toBe(200)
    carol = { id: user.body.data.id, token: changed.body.data.access_token }
    expect(
      (await call('the old password fails', 'POST', '/auth/login', { body: { username: 'carol', password: 'carol-password-1' } })).status,
    ).toBe(401)
    expect(
      (
        await call('a password too short', 'POST', '/admin/users', {
          token: admin,
          body: { username: 'shorty', password: 'sh0rt!x', name: 'S' },
        })
      ).status,
    ).toBe(400)
    expect(
      (await call('broken JSON with a password', 'POST', '/auth/login', { raw: '{"username":"carol","password":"typo-password-9"' }))
        .status,
    ).toBe(400)

    // the database refuses two writes that carry a password hash: the failures are logged, the hashes are not
    const { client } = main.deps.database
    await client.execute(
      "CREATE TRIGGER attack_no_erin BEFORE INSERT ON users WHEN NEW.username = 'erin' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END",
    )
    await client.execute(
      "CREATE TRIGGER attack_no_password BEFORE UPDATE OF password_hash ON users BEGIN SELECT RAISE(ABORT, 'disk trouble'); END",
    )
    try {
      const erin = await call('creating erin fails in the database', 'POST', '/admin/users', {
        token: admin,
        body: { username: 'erin', password: 'erin-password-1', name: 'Erin' },
      })
      expect([erin.status, erin.body]).toEqual([500, errorBody(500, 'Internal server error; the failure was logged')])
      const change = await call('a password change fails in the database', 'PUT', '/auth/password', {
        token: carol.token,
        body: { old_password: 'carol-password-2', new_password: 'carol-password-4' },
      })
      expect(change.status).toBe(500)
    } finally {
      await client.execute('DROP TRIGGER attack_no_erin')
      await client.execute('DROP TRIGGER attack_no_password')
    }
    // last, as it ends carol's sessions
    expect(
      (
        await call('an admin resets it', 'PUT', `/admin/users/${carol.id}/password`, {
          token: admin,
          body: { password: 'carol-password-3' },
        })
      ).status,
    ).toBe(200)

    const failures = logLines.filter((line) => line.includes('"unhandled error"'))
    expect(failures.length).toBeGreaterThanOrEqual(2)
    // the failing statement is still there to debug, its parameters are not
    for (const line of failures.slice(-2)) expect(line).toContain('params: [redacted]')
    for (const line of logLines) expectNoSecrets(line, `log line ${line.slice(0, 80)}`)
  }, 30_000)

  test('no secret in any answer: tokens only in the answers that hand them out, never a password or a hash', () => {
    expect(replies.length).toBeGreaterThan(10)
    for (const { what, reply, issuesTokens } of replies) expectNoSecrets(JSON.stringify(reply.body), what, issuesTokens)
  })

  test('no secret in the audit log, read through the API or from the table', async () => {
    const entries = await everyRow('/admin/audit-logs', 'list')
    expect(entries.some((entry) => entry.action === 'auth.password')).toBe(true)
    expectNoSecrets(JSON.stringify(entries), 'GET audit-logs')
    expectNoSecrets(JSON.stringify(await main.deps.database.db.select().from(auditLogs).orderBy(asc(auditLogs.id))), 'audit_logs table')
  })

  test('no secret in the answer of any GET route, read by an administrator', async () => {
    const file = (await postForm(main.app, 'upload', admin, multipart([{ field: 'file', file: { name: 'secrets.txt' } }]))).body.data
    const concrete = (path: string) =>
      path
        .replace('/files/:id/content', `/files/${file.id}/content`)
        .replace(':role_name', 'admin')
        .replace(':permission_name', 'users:read')
        .replace(':month', '2024-03')
        .replace(':file', 'init.js')
        .replace(/:\w+/g, String(carol.id))
    const routes = main.app.routes.filter((route) => route.method === 'GET')
    for (const route of routes) {
      const path = concrete(route.path) + (route.path === `${API}/storage/file-info` ? `?file_id=${file.id}` : '')
      const reply = await req(main.app, 'GET', path, { token: admin })
      expect(reply.status, `${path}: ${JSON.stringify(reply.body).slice(0, 200)}`).toBeLessThan(500)
      expectNoSecrets(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body), `GET ${path}`)
    }
    expectNoSecrets(JSON.stringify((await req(main.app, 'GET', `${API}/auth/me`, { token: admin })).body), 'me')
  })
})

// ---- 7: security headers ------------------------------------------------------------------------------

function expectSecurityHeaders(headers: Headers, what: string): void {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(headers.get('x-frame-options'), what).toBe('DENY')
  expect(headers.get('referrer-policy'), what).toBe('no-referrer')
  expect(headers.get('x-powered-by'), what).toBeNull()
  expect(headers.get('server'), what).toBeNull()
}

/** The docs page's CSP: nothing from elsewhere, no eval, scripts only from here; inline styles only (Swagger UI sets them). */
function expectStrictCsp(csp: string | null): void {
  expect(csp).not.toBeNull()
  const directives = new Map(
    csp!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  )
  expect(directives.get('default-src')).toEqual(["'none'"])
  expect(directives.get('script-src')).toEqual(["'self'"])
  expect(directives.get('frame-ancestors')).toEqual(["'none'"])
  expect(directives.get('base-uri')).toEqual(["'none'"])
  for (const [name, values] of directives)
    for (const value of values)
      expect(["'self'", "'none'", 'data:', ...(name === 'style-src' ? ["'unsafe-inline'"] : [])], `${name} ${value}`).toContain(value)
}

describe('security headers', () => {
  test('every route, with an administrator token and without one: nosniff, DENY, no-referrer, no X-Powered-By', async () => {
    const file = (await postForm(main.app, 'upload', admin, multipart([{ field: 'file', file: { name: 'headers.txt' } }]))).body.data
    const concrete = (path: string) =>
      path
        .replace('/files/:id/content', `/files/${file.id}/content`)
        .replace(':file', 'swagger-ui.css')
        .replace(':role_name', 'no_such_role')
        .replace(':permission_name', 'no:such')
        .replace(':month', '2024-01')
        .replace(/:\w+/g, '999999')
    const routes = main.app.routes.filter((route) => route.path !== `${API}/auth/logout`)
    expect(routes.length).toBeGreaterThan(80)
    for (const route of routes)
      for (const token of [admin, undefined]) {
        const path = concrete(route.path)
        const body = ['GET', 'HEAD'].includes(route.method) ? undefined : {}
        const reply = await req(main.app, route.method, path, { token, body })
        const what = `${route.method} ${path} ${token ? 'as admin' : 'without a token'} → ${reply.status}`
        expect(reply.status, what).toBeLessThan(500)
        expectSecurityHeaders(reply.headers, what)
      }
  }, 20_000)

  test('the answers that do not come from a route: 404, OPTIONS, 400, 413, 415, 401, HEAD, 206, 304, 416 and a bad link; CSP on the docs page only', async () => {
    const upload = await postForm(main.app, 'upload', admin, multipart([{ field: 'file', file: { name: 'h.txt' } }]))
    const content = `${API}/storage/files/${upload.body.data.id}/content`
    const send = (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
      main.app.handle(new Request(`http://localhost${path}`, { method, ...init }))
    const bearer = { authorization: `Bearer ${admin}` }
    const etag = (await send('HEAD', content, { headers: bearer })).headers.get('etag')!
    const cases: [string, Promise<Response>, number][] = [
      ['unknown path', send('GET', '/nothing/here'), 404],
      ['OPTIONS', send('OPTIONS', `${API}/admin/users`), 404],
      ['malformed JSON', send('POST', `${API}/auth/login`, { headers: { 'content-type': 'application/json' }, body: '{"username":' }), 400],
      [
        'JSON over 1 MiB',
        send('POST', `${API}/auth/login`, { headers: { 'content-type': 'application/json' }, body: ' '.repeat(MiB + 1) }),
        413,
      ],
      [
        'a type not allowed',
        postForm(main.app, 'upload', admin, multipart([{ field: 'file', file: { name: 'x.exe', data: 'MZ\u0090\u0000' } }])).then(
          (reply) => new Response(null, { status: reply.status, headers: reply.headers }),
        ),
        415,
      ],
      ['no token', send('GET', `${API}/auth/me`), 401],
      ['HEAD of a file', send('HEAD', content, { headers: bearer }), 200],
      ['a range', send('GET', content, { headers: { ...bearer, range: 'bytes=0-1' } }), 206],
      ['a matching ETag', send('GET', content, { headers: { ...bearer, 'if-none-match': etag } }), 304],
      ['a range past the end', send('GET', content, { headers: { ...bearer, range: 'bytes=99-' } }), 416],
      ['a forged link', send('GET', `${content}?expires=9999999999&signature=${'0'.repeat(64)}`), 403],
      ['health', send('GET', '/health'), 200],
      ['the OpenAPI document', send('GET', '/swagger/json'), 200],
      ['a docs asset', send('GET', '/swagger/assets/swagger-ui.css'), 200],
    ]
    for (const [what, response, status] of cases) {
      const answer = await response
      expect(answer.status, what).toBe(status)
      expectSecurityHeaders(answer.headers, what)
      expect(answer.headers.get('content-security-policy'), what).toBeNull()
      await answer.arrayBuffer()
    }
    const page = await send('GET', '/swagger')
    expectSecurityHeaders(page.headers, 'docs page')
    expectStrictCsp(page.headers.get('content-security-policy'))
    // everything the page loads is on this origin, as the CSP demands
    const html = await page.text()
    expect([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).filter((url) => !url.startsWith('/swagger/'))).toEqual([])
    expect(html).not.toMatch(/<script>|<style>|\sstyle="|\son\w+="/)
  })
})

// ---- 8: over a real connection --------------------------------------------------------------------------

/** Bun's own cap, as src/index.ts sets it: room for a batch of 20 files of MAX_FILE_SIZE and the form around them. */
const BUN_BODY_LIMIT = MAX_FILE * 20 + MiB

describe('a real server process (bun src/index.ts, LOG_LEVEL=debug)', () => {
  let dir: string
  let proc: ReturnType<typeof Bun.spawn> | undefined
  let port = 0
  let output = ''
  let token = ''
  const base = () => `http://127.0.0.1:${port}`

  beforeAll(async () => {
    dir = tempDir('workforce-attacks-server-')
    proc = Bun.spawn(['bun', join(import.meta.dir, '..', 'src', 'index.ts')], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
        STORAGE_URL: `file:${join(dir, 'files')}`,
        ADMIN_PASSWORD,
        JWT_SECRET: 'test-secret-that-is-at-least-32-bytes-long',
        MAX_FILE_SIZE: String(MAX_FILE),
        LOG_LEVEL: 'debug',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    // both pipes are read to the end, so the server never blocks on a full pipe
    const collect = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder()
      for await (const chunk of stream) output += decoder.decode(chunk, { stream: true })
    }
    void collect(proc.stdout as ReadableStream<Uint8Array>)
    void collect(proc.stderr as ReadableStream<Uint8Array>)
    const deadline = Date.now() + 20_000
    while (!port && Date.now() < deadline) {
      port = Number(/"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(output)?.[1] ?? 0)
      if (!port) await Bun.sleep(25)
    }
    if (!port) throw new Error(`the server did not start:\n${output}`)
    const signedIn = await fetch(`${base()}${API}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    }).then((response) => response.json() as Promise<{ data: { access_token: string; refresh_token: string } }>)
    token = signedIn.data.access_token
    secrets.add(token).add(signedIn.data.refresh_token)
  }, 30_000)

  afterAll(async () => {
    if (proc && proc.exitCode === null) {
      proc.kill('SIGTERM')
      await proc.exited
    }
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  /** One request written byte by byte on a fresh connection; the raw answer (status line, headers, body). */
  function raw(request: string, settleMs = 300): Promise<string> {
    return new Promise((resolve) => {
      let data = ''
      const socket = connect(port, '127.0.0.1')
      socket.on('data', (chunk) => (data += chunk.toString('latin1')))
      socket.on('close', () => resolve(data))
      socket.on('error', () => resolve(data))
      socket.write(request)
      setTimeout(() => socket.end(), settleMs)
    })
  }
  const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)
  const headerLines = (answer: string) => answer.split('\r\n\r\n')[0].split('\r\n').slice(1)
  const storedFiles = () => filesUnder(join(dir, 'files')).filter((path) => !path.startsWith('.tmp/'))

  test('over the socket: security headers on health, docs, 404, 401, 413 and a download, no X-Powered-By; one Content-Disposition line; "../" in the raw path escapes nothing', async () => {
    for (const [path, status] of [
      ['/health', 200],
      ['/swagger', 200],
      ['/swagger/json', 200],
      ['/nothing/here', 200], // the web console's page (its router says what is not there)
      [`${API}/nothing/here`, 404],
      [`${API}/auth/me`, 401],
    ] as const) {
      const response = await fetch(`${base()}${path}`)
      expect(response.status, path).toBe(status)
      expectSecurityHeaders(response.headers, path)
      if (path === '/swagger' || path === '/nothing/here') expectStrictCsp(response.headers.get('content-security-policy'))
      await response.arrayBuffer()
    }

    const name = 'evil\r\nSet-Cookie: a=b; "x".txt'
    const form = new FormData()
    form.append('file', new File(['hello'], name))
    const uploaded = await fetch(`${base()}${API}/storage/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    }).then((response) => response.json() as Promise<{ code: number; data: { id: string } }>)
    expect(uploaded.code).toBe(200)
    const download = await raw(
      `GET ${API}/storage/files/${uploaded.data.id}/content HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    )
    expect(statusOf(download)).toBe(200)
    const lines = headerLines(download).map((line) => line.toLowerCase())
    expect(lines.filter((line) => line.startsWith('content-disposition:'))).toHaveLength(1)
    expect(lines.filter((line) => line.startsWith('set-cookie:') || line.startsWith('x-powered-by:'))).toEqual([])
    expect(lines).toContain('x-content-type-options: nosniff')

    for (const target of [
      '/swagger/assets/../../package.json',
      '/swagger/assets/..%2f..%2fpackage.json',
      `${API}/storage/files/../../../../etc/passwd/content`,
      '/../../../etc/passwd',
    ]) {
      tally('path traversal', `raw request target ${target}`)
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`)
      // a path that resolves outside the API, the docs and /health is the web console's page
      const resolved = new URL(target, 'http://x').pathname
      expect(isReserved(resolved) ? [400, 404] : [200, 400, 404], `${target}: ${answer.slice(0, 200)}`).toContain(
        statusOf(answer),
      )
      expect(answer).not.toContain('"name": "workforce"')
      expect(answer).not.toContain('root:')
    }
  })

  test("body limits: JSON over 1 MiB with a length or chunked → 413 envelope; over Bun's own cap → a bare 413; a chunked file over MAX_FILE_SIZE → 413; CL with TE → 400; nothing stored", async () => {
    const before = storedFiles()
    tally('oversized bodies', 'JSON of 1 MiB + 1 over a socket, with Content-Length')
    const sized = await fetch(`${base()}${API}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ' '.repeat(MiB + 1),
    })
    expect([sized.status, await sized.json()]).toEqual([413, { ...TOO_LARGE_JSON, timestamp: expect.any(String) }])
    expectSecurityHeaders(sized.headers, '413 with a length')

    tally('oversized bodies', 'JSON of 1.5 MiB over a socket, chunked')
    const big = JSON.stringify({ username: 'admin', password: 'p'.repeat(1.5 * MiB) })
    const chunked = await raw(
      `POST ${API}/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
    )
    expect(statusOf(chunked)).toBe(413)
    expect(JSON.parse(chunked.split('\r\n\r\n')[1])).toMatchObject({ code: 413, message: TOO_LARGE_JSON.message, data: null })

    // Bun refuses a declared length over its cap before the service sees the request: 413, no envelope (a Bun limit)
    tally('oversized bodies', "upload declaring more than Bun's cap")
    const overCap = await raw(
      `POST ${API}/storage/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${BUN_BODY_LIMIT + 1}\r\nConnection: close\r\n\r\n--${BOUNDARY}\r\n`,
    )
    expect(statusOf(overCap)).toBe(413)

    tally('oversized bodies', 'chunked upload of a 200 KiB file over a socket')
    const file = multipart([{ field: 'file', file: { name: 'big.txt', data: 'a'.repeat(200 * 1024) } }])
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < file.length; at += 32 * 1024) controller.enqueue(file.slice(at, at + 32 * 1024))
        controller.close()
      },
    })
    const upload = await fetch(`${base()}${API}/storage/upload`, {
      method: 'POST',
      body: stream,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      duplex: 'half',
    } as RequestInit)
    expect([upload.status, await upload.json()]).toEqual([413, { ...TOO_LARGE_FILE, timestamp: expect.any(String) }])

    tally('oversized bodies', 'Content-Length and Transfer-Encoding together (request smuggling)')
    const smuggled = await raw(
      `POST ${API}/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\n{"a":\r\n0\r\n\r\n`,
    )
    expect(statusOf(smuggled)).toBe(400)
    expect(storedFiles()).toEqual(before)
  })

  test('the process output holds no password, hash or token, also when a write that carries a hash fails', async () => {
    secrets.add('admin-password-2')
    const client = createClient({ url: `file:${join(dir, 'workforce.db')}` })
    try {
      await client.execute(
        "CREATE TRIGGER attack_no_password BEFORE UPDATE OF password_hash ON users BEGIN SELECT RAISE(ABORT, 'disk trouble'); END",
      )
      const failed = await fetch(`${base()}${API}/auth/password`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ old_password: ADMIN_PASSWORD, new_password: 'admin-password-2' }),
      })
      expect(failed.status).toBe(500)
      await client.execute('DROP TRIGGER attack_no_password')
    } finally {
      client.close()
    }
    const wrong = await fetch(`${base()}${API}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-password-2' }),
    })
    expect(wrong.status).toBe(401)
    proc!.kill('SIGTERM')
    expect(await proc!.exited).toBe(0)
    await Bun.sleep(50)
    tally('secrets', 'real process: a password write that fails in the database')
    tally('secrets', 'real process: a failed sign-in')
    expect(output).toContain('"level":"error","message":"unhandled error"')
    expect(output).toContain('params: [redacted]')
    for (const line of output.split('\n')) expectNoSecrets(line, `server output ${line.slice(0, 80)}`)
  }, 20_000)
})
