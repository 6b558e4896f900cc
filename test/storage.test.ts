import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { App } from '../src/app'
import { files } from '../src/db/schema'
import { errorBody, healthyChecks, invalidBody, loginAdmin, makeUser, NOW, okBody, req, startApp, type Reply, type TestApp, replyOf } from './helpers'
import { startS3 } from './s3-server'

/*
 * The file storage endpoints (workforce-api.md §2 File, §4.6, §7, §8; CONTRACT.md §5), every test run once
 * against the local disk and once against S3 (s3rver on 127.0.0.1).
 */

const API = '/api/v1/storage'
const PUBLIC_URL = 'http://localhost:8080'
const BUCKET = 'workforce-test'
const MiB = 1024 * 1024
const NOW_S = Date.parse(NOW) / 1000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const ALLOWED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/plain',
]
const NOT_ACCEPTED = `which is not accepted; allowed: ${ALLOWED_TYPES.join(', ')}`
const SIGN_IN = 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'
const BAD_LINK = 'This link is invalid or has expired; ask for a new one'
const BAD_FOLDER = errorBody(
  400,
  'folder must be names of letters, digits, spaces, ".", "_" or "-" joined by "/", without "..", a leading "/" or "\\", at most 255 characters',
  { errors: [{ field: 'folder', message: 'is not a valid folder path' }] },
)
const UNAVAILABLE = 'File storage is unavailable right now (the S3 store does not answer); try again later'

// real magic bytes
const bytes = (text: string) => new TextEncoder().encode(text)
const PNG = new Uint8Array(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
)
const GIF = new Uint8Array(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'))
const PDF = bytes('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')
const TEXT = bytes('hello')
const ZIP = new Uint8Array([
  0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00, 0x61, 0x2e, 0x74, 0x78, 0x74,
])
const BINARY = new Uint8Array([0x00, 0xff, 0xfe, 0x13, 0x37, 0x80, 0x81, 0x00, 0x9f, 0x42, 0x07, 0xc3])

/** A ZIP archive of stored (uncompressed) entries: enough for the OOXML sniffing of .docx and .xlsx. */
function zipOf(entries: [string, string][]): Uint8Array {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, text] of entries) {
    const [fileName, data] = [Buffer.from(name), Buffer.from(text)]
    const crc = Bun.hash.crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(fileName.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(fileName.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, fileName, data)
    centrals.push(central, fileName)
    offset += local.length + fileName.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, directory, end]))
}
const contentTypes = (part: string, type: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="xml" ContentType="application/xml"/><Override PartName="/${part}" ContentType="application/vnd.openxmlformats-officedocument.${type}.main+xml"/></Types>`
const DOCX = zipOf([
  ['[Content_Types].xml', contentTypes('word/document.xml', 'wordprocessingml.document')],
  ['word/document.xml', '<w:document/>'],
])
const XLSX = zipOf([
  ['[Content_Types].xml', contentTypes('xl/workbook.xml', 'spreadsheetml.sheet')],
  ['xl/workbook.xml', '<workbook/>'],
])
/** An OLE compound file header: the container of .doc and .xls. */
const CFB = new Uint8Array(1536)
CFB.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
])

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex')
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
/** An envelope stamped at `at` instead of NOW (the clock was moved). */
const stamped = <T extends object>(body: T, at: string) => ({ ...body, timestamp: at })

interface Part {
  name: string
  data: Uint8Array | string
  field?: string
}

/** A multipart request the way a browser or fetch builds it, to `upload` (field "file") or `batch-upload` ("files"). */
async function send(
  app: App,
  path: 'upload' | 'batch-upload',
  token: string | undefined,
  parts: Part[],
  fields: Record<string, string> = {},
  extraHeaders: Record<string, string> = {},
) {
  const form = new FormData()
  for (const part of parts) form.append(part.field ?? (path === 'upload' ? 'file' : 'files'), new File([part.data], part.name))
  // text fields after the file: the file is already stored when they are checked
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const headers: Record<string, string> = token ? { ...extraHeaders, authorization: `Bearer ${token}` } : extraHeaders
  return replyOf(await app.handle(new Request(`http://localhost${API}/${path}`, { method: 'POST', body: form, headers })))
}

describe.each([
  ['local disk', false],
  ['S3', true],
] as const)('file storage on %s', (_backend, isS3) => {
  let t: TestApp
  let s3: Awaited<ReturnType<typeof startS3>> | undefined
  let admin: string
  let bob: { id: number; token: string }
  const ADMIN = { id: 1, name: 'Administrator' }
  let BOB: { id: number; name: string }

  beforeAll(async () => {
    s3 = isS3 ? await startS3() : undefined
    t = await startApp({ env: s3?.env })
    admin = await loginAdmin(t.app)
    bob = await makeUser(t.app, admin, 'bob')
    BOB = { id: bob.id, name: 'bob' }
  })

  afterAll(async () => {
    t?.close()
    await s3?.stop()
  })

  afterEach(() => t.clock.set(NOW))

  // ---- helpers bound to this backend's app --------------------------------------------------------

  const upload = (token: string | undefined, parts: Part[], fields?: Record<string, string>) => send(t.app, 'upload', token, parts, fields)
  const batchUpload = (token: string | undefined, parts: Part[], fields?: Record<string, string>) =>
    send(t.app, 'batch-upload', token, parts, fields)

  /** Uploads one file and returns its detail; fails the test when the upload is refused. */
  async function uploaded(token: string, part: Part, fields?: Record<string, string>) {
    const reply = await upload(token, [part], fields)
    if (reply.status !== 201) throw new Error(`upload of ${part.name} failed: ${JSON.stringify(reply.body)}`)
    return reply.body.data as { id: string; filename: string; url: string; download_url: string; size: number; original_name: string }
  }

  const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
    t.app.handle(new Request(`http://localhost${path}`, { headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers }))

  const contentPath = (id: string) => `${API}/files/${id}/content`

  /** Follows a signed link: through the app for the local disk, straight to the S3 server for S3. */
  const followLink = (url: string) => (isS3 ? fetch(url) : t.app.handle(new Request(url.replace(PUBLIC_URL, 'http://localhost'))))

  const rowOf = async (id: string) => (await t.deps.database.db.select().from(files).where(eq(files.id, id)))[0]

  async function objectsIn(app: TestApp): Promise<string[]> {
    const keys: string[] = []
    for await (const object of app.deps.store.list()) keys.push(`${object.key} ${object.size}`)
    return keys.sort()
  }

  /** Every row id and every object (key and size): to show that a refused request left nothing behind. */
  async function stored(app: TestApp = t) {
    const rows = (await app.deps.database.db.select({ id: files.id }).from(files)).map((row) => row.id).sort()
    return { rows, objects: await objectsIn(app) }
  }

  /** Removes every file through the API, so a section starts from an empty store. */
  async function clearAll() {
    for (;;) {
      const listed = await req(t.app, 'GET', `${API}/files?page_size=100`, { token: admin })
      const ids = (listed.body.data.files as { id: string }[]).map((file) => file.id)
      if (ids.length === 0) break
      const removed = await req(t.app, 'DELETE', `${API}/batch-delete`, { token: admin, body: { file_ids: ids } })
      expect(removed.body.data.failed).toBe(0)
    }
    expect(await stored()).toEqual({ rows: [], objects: [] })
  }

  /** The signed URL the service hands out for a file, valid `seconds` from `at`. */
  function signedUrl(id: string, ext: string, seconds: number, at = NOW, endpoint = s3?.endpoint) {
    if (!isS3) {
      const prefix = `${PUBLIC_URL}${API}/files/${id}/content?expires=${Date.parse(at) / 1000 + seconds}&signature=`
      return expect.stringMatching(new RegExp(`^${escapeRegex(prefix)}[0-9a-f]{64}$`))
    }
    const prefix = `${endpoint}/${BUCKET}/2024/03/${id}.${ext}?`
    const param = (name: string, value: string) => `(?=(?:.*&)?${name}=${value}(?:&|$))`
    return expect.stringMatching(
      new RegExp(`^${escapeRegex(prefix)}${param('X-Amz-Expires', String(seconds))}${param('X-Amz-Signature', '[0-9a-f]{64}')}.*$`),
    )
  }

  interface Expected {
    id: string
    ext: string
    name: string
    mime: string
    size: number
    sizeFormatted?: string
    folder?: string | null
    description?: string | null
    isPublic?: boolean
    uploader?: { id: number; name: string }
    createdAt?: string
    lastAccessedAt?: string | null
    downloads?: number
    /** when the detail was read: the download_url is valid for an hour from then */
    readAt?: string
    /** the S3 server of the app that answered, when not the main one */
    endpoint?: string
  }

  const listItem = (f: Expected) => ({
    id: f.id,
    filename: `${f.id}.${f.ext}`,
    original_name: f.name,
    mime_type: f.mime,
    size: f.size,
    size_formatted: f.sizeFormatted ?? `${f.size} B`,
    folder: f.folder ?? null,
    description: f.description ?? null,
    is_public: f.isPublic ?? false,
    uploaded_by: f.uploader ?? ADMIN,
    created_at: f.createdAt ?? NOW,
  })

  const detail = (f: Expected) => ({
    ...listItem(f),
    url: `${PUBLIC_URL}${API}/files/${f.id}/content`,
    download_url: signedUrl(f.id, f.ext, 3600, f.readAt ?? NOW, f.endpoint ?? s3?.endpoint),
    uploaded_by: { ...(f.uploader ?? ADMIN), avatar: null },
    last_accessed_at: f.lastAccessedAt ?? null,
    download_count: f.downloads ?? 0,
  })

  // ---- upload -------------------------------------------------------------------------------------

  describe('upload', () => {
    test('a PDF with a non-ASCII name → 201, body code 200, the whole File object; its row and its object exist', async () => {
      const before = await stored()
      const reply = await upload(admin, [{ name: '报告 2024.pdf', data: PDF }], {
        folder: 'contracts/2024',
        description: 'Signed contract',
        is_public: 'true',
      })
      expect(reply.status).toBe(201)
      const id = reply.body.data?.id
      expect(id).toMatch(UUID)
      const expected = { id, ext: 'pdf', name: '报告 2024.pdf', mime: 'application/pdf', size: PDF.length }
      expect(reply.body).toEqual(
        okBody(detail({ ...expected, folder: 'contracts/2024', description: 'Signed contract', isPublic: true }), 'File uploaded'),
      )
      expect(await rowOf(id)).toEqual({
        id,
        storageKey: `2024/03/${id}.pdf`,
        filename: `${id}.pdf`,
        originalName: '报告 2024.pdf',
        mimeType: 'application/pdf',
        size: PDF.length,
        etag: md5(PDF),
        folder: 'contracts/2024',
        description: 'Signed contract',
        isPublic: true,
        uploadedBy: 1,
        downloadCount: 0,
        lastAccessedAt: null,
        createdAt: new Date(NOW),
        updatedAt: new Date(NOW),
      })
      expect(await stored()).toEqual({
        rows: [...before.rows, id].sort(),
        objects: [...before.objects, `2024/03/${id}.pdf ${PDF.length}`].sort(),
      })
    })

    const kinds: [string, Part, string, string, string?][] = [
      ['a PNG', { name: 'pixel.png', data: PNG }, 'image/png', 'png'],
      ['a GIF', { name: 'Pixel.GIF', data: GIF }, 'image/gif', 'gif'],
      ['UTF-8 text', { name: 'notes.txt', data: bytes('Grüße, 世界\n') }, 'text/plain', 'txt'],
      ['text without an extension', { name: 'README', data: bytes('read me\n') }, 'text/plain', 'txt'],
      ['CSV text', { name: 'data.csv', data: bytes('a,b\n1,2\n') }, 'text/plain', 'csv'],
      ['a JPEG named .jpeg', { name: 'photo.jpeg', data: JPEG }, 'image/jpeg', 'jpeg'],
      ['a .docx', { name: 'letter.docx', data: DOCX }, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
      ['a .xlsx', { name: 'sheet.xlsx', data: XLSX }, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
      ['an OLE file named .doc', { name: 'old.doc', data: CFB }, 'application/msword', 'doc', '1.50 KB'],
      ['an OLE file named .xls', { name: 'old.xls', data: CFB }, 'application/vnd.ms-excel', 'xls', '1.50 KB'],
    ]
    for (const [what, part, mime, ext, sizeFormatted] of kinds)
      test(`${what} is ${mime}, stored as <id>.${ext}; folder, description null and is_public false by default`, async () => {
        const reply = await upload(bob.token, [part])
        expect(reply.status).toBe(201)
        const id = reply.body.data.id
        const size = typeof part.data === 'string' ? bytes(part.data).length : part.data.length
        expect(reply.body).toEqual(okBody(detail({ id, ext, name: part.name, mime, size, sizeFormatted, uploader: BOB }), 'File uploaded'))
        expect(await objectsIn(t)).toContain(`2024/03/${id}.${ext} ${size}`)
      })

    const refused: [string, Part, string][] = [
      [
        'an extension that disagrees with the content',
        { name: 'x.png', data: GIF },
        'The name "x.png" ends in .png, but its content is image/gif; rename it or send the right file',
      ],
      [
        'text named .pdf',
        { name: 'fake.pdf', data: TEXT },
        'The name "fake.pdf" ends in .pdf, but its content is text/plain; rename it or send the right file',
      ],
      [
        'a .docx named .xlsx',
        { name: 'letter.xlsx', data: DOCX },
        'The name "letter.xlsx" ends in .xlsx, but its content is application/vnd.openxmlformats-officedocument.wordprocessingml.document; rename it or send the right file',
      ],
      ['a ZIP archive', { name: 'a.zip', data: ZIP }, `"a.zip" is of type application/zip, ${NOT_ACCEPTED}`],
      [
        'a real ZIP archive named .txt',
        { name: 'a.txt', data: zipOf([['a.txt', 'hi']]) },
        `"a.txt" is of type application/zip, ${NOT_ACCEPTED}`,
      ],
      ['an OLE file named .ppt', { name: 'slides.ppt', data: CFB }, `"slides.ppt" is of type application/x-cfb, ${NOT_ACCEPTED}`],
      ['unrecognised binary', { name: 'a.bin', data: BINARY }, `"a.bin" is of a type that could not be recognised, ${NOT_ACCEPTED}`],
    ]
    for (const [what, part, message] of refused)
      test(`${what} → 415; no row and no object`, async () => {
        const before = await stored()
        const reply = await upload(admin, [part])
        expect(reply.status).toBe(415)
        expect(reply.body).toEqual(errorBody(415, message))
        expect(await stored()).toEqual(before)
      })

    test('refusals in Chinese with Accept-Language: zh', async () => {
      const zh = { 'accept-language': 'zh' }
      const before = await stored()
      const wrongName = await send(t.app, 'upload', admin, [{ name: 'fake.pdf', data: TEXT }], {}, zh)
      expect(wrongName.body).toEqual(errorBody(415, '文件名“fake.pdf”的扩展名是 .pdf，但内容是 text/plain；请改名或发送正确的文件'))
      const zip = await send(t.app, 'upload', admin, [{ name: 'a.zip', data: ZIP }], {}, zh)
      expect(zip.body).toEqual(errorBody(415, `“a.zip”的类型为 application/zip，不被接受；允许的类型：${ALLOWED_TYPES.join(', ')}`))
      const none = await send(t.app, 'upload', admin, [], { folder: 'x' }, zh)
      expect(none.body).toEqual(
        errorBody(400, '没有文件：请在 multipart 字段 "file" 中发送', { errors: [{ field: 'file', message: '为必填项' }] }),
      )
      const folder = await send(t.app, 'upload', admin, [{ name: 'a.txt', data: TEXT }], { folder: '../up' }, zh)
      expect(folder.body).toEqual(
        errorBody(400, 'folder 必须由字母、数字、空格、“.”、“_”或“-”组成的名称以“/”连接，不能含“..”、开头的“/”或“\\”，最多 255 个字符', {
          errors: [{ field: 'folder', message: '不是有效的文件夹路径' }],
        }),
      )
      const empty = await send(t.app, 'upload', admin, [{ name: 'empty.txt', data: '' }], {}, zh)
      expect(empty.body).toEqual(errorBody(400, '“empty.txt”是空文件'))
      expect(await stored()).toEqual(before)
    })

    test('no file field → 400; a file in another field is ignored', async () => {
      const before = await stored()
      const expected = errorBody(400, 'No file: send it in the multipart field "file"', {
        errors: [{ field: 'file', message: 'is required' }],
      })
      const none = await upload(admin, [], { folder: 'x' })
      expect(none.status).toBe(400)
      expect(none.body).toEqual(expected)
      const elsewhere = await upload(admin, [{ name: 'a.txt', data: TEXT, field: 'document' }])
      expect(elsewhere.status).toBe(400)
      expect(elsewhere.body).toEqual(expected)
      expect(await stored()).toEqual(before)
    })

    test('two files in "file" → 400 and neither is kept', async () => {
      const before = await stored()
      const reply = await upload(admin, [
        { name: 'a.txt', data: TEXT },
        { name: 'b.txt', data: TEXT },
      ])
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, 'Send one file in the field "file"; use /api/v1/storage/batch-upload for several'))
      expect(await stored()).toEqual(before)
    })

    for (const folder of ['../x', 'a/../b', '/abs', 'a\\b', 'a//b', 'x'.repeat(256), 'a/b?c', '.'])
      test(`folder ${JSON.stringify(folder.length > 20 ? `${folder.slice(0, 5)}…(${folder.length})` : folder)} → 400; nothing left behind`, async () => {
        const before = await stored()
        const reply = await upload(admin, [{ name: 'a.txt', data: TEXT }], { folder })
        expect(reply.status).toBe(400)
        expect(reply.body).toEqual(BAD_FOLDER)
        expect(await stored()).toEqual(before)
      })

    test('a folder of exactly 255 characters, with a trailing "/", is accepted without the "/"', async () => {
      const folder = `${'f'.repeat(100)}/${'g'.repeat(154)}`
      const reply = await upload(admin, [{ name: 'a.txt', data: TEXT }], { folder: `${folder}/` })
      expect(reply.status).toBe(201)
      expect(reply.body.data.folder).toBe(folder)
    })

    test('is_public "maybe" → 400; nothing left behind', async () => {
      const before = await stored()
      const reply = await upload(admin, [{ name: 'a.txt', data: TEXT }], { is_public: 'maybe' })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(
        errorBody(400, 'is_public must be true or false', { errors: [{ field: 'is_public', message: 'must be true or false' }] }),
      )
      expect(await stored()).toEqual(before)
    })

    test('a description over 500 characters → 400; nothing left behind', async () => {
      const before = await stored()
      const reply = await upload(admin, [{ name: 'a.txt', data: TEXT }], { description: 'd'.repeat(501) })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(
        errorBody(400, 'description must be at most 500 characters long', {
          errors: [{ field: 'description', message: 'must be at most 500 characters long' }],
        }),
      )
      expect(await stored()).toEqual(before)
    })

    test('an empty file → 400; nothing left behind', async () => {
      const before = await stored()
      const reply = await upload(admin, [{ name: 'empty.txt', data: new Uint8Array(0) }])
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, '"empty.txt" is empty'))
      expect(await stored()).toEqual(before)
    })

    test('a path in front of the name is dropped', async () => {
      for (const [name, kept] of [
        ['../../etc/passwd.txt', 'passwd.txt'],
        ['C:\\Users\\me\\report.txt', 'report.txt'],
      ]) {
        const reply = await upload(admin, [{ name, data: TEXT }])
        expect(reply.status).toBe(201)
        expect(reply.body.data.original_name).toBe(kept)
      }
    })

    test('a multipart body cut off in the middle of the file → 400; nothing left behind', async () => {
      const before = await stored()
      const boundary = 'cut-off-boundary'
      const reply = await req(t.app, 'POST', `${API}/upload`, {
        token: admin,
        raw: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello the`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, 'The multipart/form-data body is malformed or was cut off (Unexpected end of form)'))
      expect(await stored()).toEqual(before)
    })

    test('a body that is not multipart → 400', async () => {
      const before = await stored()
      const json = await req(t.app, 'POST', `${API}/upload`, { token: admin, body: { file: 'hello' } })
      expect(json.status).toBe(400)
      expect(json.body).toEqual(errorBody(400, 'Send the file as multipart/form-data'))
      const noBoundary = await req(t.app, 'POST', `${API}/upload`, {
        token: admin,
        raw: 'hello',
        headers: { 'content-type': 'multipart/form-data' },
      })
      expect(noBoundary.status).toBe(400)
      expect(noBoundary.body).toEqual(errorBody(400, 'The multipart/form-data body has no boundary; let your HTTP client build the form'))
      expect(await stored()).toEqual(before)
    })

    test('no token → 401 with WWW-Authenticate; nothing stored', async () => {
      const before = await stored()
      const reply = await upload(undefined, [{ name: 'a.txt', data: TEXT }])
      expect(reply.status).toBe(401)
      expect(reply.headers.get('www-authenticate')).toBe('Bearer')
      expect(reply.body).toEqual(errorBody(401, SIGN_IN))
      expect(await stored()).toEqual(before)
    })
  })

  // ---- the size limit -----------------------------------------------------------------------------

  describe('MAX_FILE_SIZE (an app started with 1 MiB)', () => {
    let small: TestApp
    let smallS3: Awaited<ReturnType<typeof startS3>> | undefined
    let token: string

    beforeAll(async () => {
      smallS3 = isS3 ? await startS3() : undefined
      small = await startApp({ env: { ...smallS3?.env, MAX_FILE_SIZE: String(MiB) } })
      token = await loginAdmin(small.app)
    })

    afterAll(async () => {
      small?.close()
      await smallS3?.stop()
    })

    const TOO_LARGE = errorBody(413, 'The file is larger than the limit of 1.00 MB (1048576 bytes)')

    for (const [what, size] of [
      ['1 MiB + 1 byte', MiB + 1],
      ['3 MiB', 3 * MiB],
    ] as const)
      test(`${what} → 413; no object, no row, no temp file`, async () => {
        const reply = await send(small.app, 'upload', token, [{ name: 'big.txt', data: new Uint8Array(size).fill(0x61) }])
        expect(reply.status).toBe(413)
        expect(reply.body).toEqual(TOO_LARGE)
        expect(await stored(small)).toEqual({ rows: [], objects: [] })
        if (!isS3) expect(await readdir(join(small.dir, 'files', '.tmp')).catch(() => [])).toEqual([])
      })

    test('a declared Content-Length far over the limit → 413 before the body is read', async () => {
      const boundary = 'declared-boundary'
      const reply = await req(small.app, 'POST', `${API}/upload`, {
        token,
        raw: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(3 * MiB) },
      })
      expect(reply.status).toBe(413)
      expect(reply.body).toEqual(TOO_LARGE)
      expect(await stored(small)).toEqual({ rows: [], objects: [] })
    })

    test('exactly the limit → 201 with size 1048576 ("1.00 MB")', async () => {
      const data = new Uint8Array(MiB).fill(0x61)
      const reply = await send(small.app, 'upload', token, [{ name: 'exact.txt', data }])
      expect(reply.status).toBe(201)
      const id = reply.body.data.id
      expect(reply.body).toEqual(
        okBody(
          detail({
            id,
            ext: 'txt',
            name: 'exact.txt',
            mime: 'text/plain',
            size: MiB,
            sizeFormatted: '1.00 MB',
            endpoint: smallS3?.endpoint,
          }),
          'File uploaded',
        ),
      )
      expect(await stored(small)).toEqual({ rows: [id], objects: [`2024/03/${id}.txt ${MiB}`] })
      expect((await small.deps.database.db.select().from(files))[0].etag).toBe(md5(data))
    })

    test('in a batch, the file over the limit fails on its own', async () => {
      const before = await stored(small)
      const reply = await send(small.app, 'batch-upload', token, [
        { name: 'big.txt', data: new Uint8Array(MiB + 1).fill(0x61) },
        { name: 'small.txt', data: TEXT },
      ])
      expect(reply.status).toBe(200)
      expect(reply.body.data.results[0]).toEqual({ original_name: 'big.txt', status: 'failed', error: TOO_LARGE.message })
      expect(reply.body.data.results[1].status).toBe('success')
      const id = reply.body.data.results[1].id
      expect(await stored(small)).toEqual({ rows: [...before.rows, id].sort(), objects: [...before.objects, `2024/03/${id}.txt 5`].sort() })
    })

    test('the config reports the limit', async () => {
      const reply = await req(small.app, 'GET', `${API}/config`, { token })
      expect(reply.body.data.max_file_size).toBe(MiB)
      expect(reply.body.data.max_file_size_formatted).toBe('1.00 MB')
    })
  })

  // ---- batch upload -------------------------------------------------------------------------------

  describe('batch-upload', () => {
    test('three files, one refused → 200 with a result per file, in order; the two others stored', async () => {
      const before = await stored()
      const reply = await batchUpload(
        bob.token,
        [
          { name: 'one.txt', data: TEXT },
          { name: 'x.png', data: GIF },
          { name: 'three.pdf', data: PDF },
        ],
        { folder: 'batch/2024', description: 'from a batch', is_public: 'true' },
      )
      expect(reply.status).toBe(200)
      const [first, , third] = (reply.body.data?.results ?? []) as { id: string }[]
      expect(first?.id).toMatch(UUID)
      expect(third?.id).toMatch(UUID)
      expect(reply.body).toEqual(
        okBody(
          {
            total: 3,
            success: 2,
            failed: 1,
            results: [
              {
                id: first.id,
                filename: `${first.id}.txt`,
                original_name: 'one.txt',
                size: TEXT.length,
                url: `${PUBLIC_URL}${API}/files/${first.id}/content`,
                status: 'success',
              },
              {
                original_name: 'x.png',
                status: 'failed',
                error: 'The name "x.png" ends in .png, but its content is image/gif; rename it or send the right file',
              },
              {
                id: third.id,
                filename: `${third.id}.pdf`,
                original_name: 'three.pdf',
                size: PDF.length,
                url: `${PUBLIC_URL}${API}/files/${third.id}/content`,
                status: 'success',
              },
            ],
          },
          'Files processed',
        ),
      )
      expect(await stored()).toEqual({
        rows: [...before.rows, first.id, third.id].sort(),
        objects: [...before.objects, `2024/03/${first.id}.txt ${TEXT.length}`, `2024/03/${third.id}.pdf ${PDF.length}`].sort(),
      })
      const info = await req(t.app, 'GET', `${API}/file-info?file_id=${third.id}`, { token: bob.token })
      expect(info.body).toEqual(
        okBody(
          detail({
            id: third.id,
            ext: 'pdf',
            name: 'three.pdf',
            mime: 'application/pdf',
            size: PDF.length,
            folder: 'batch/2024',
            description: 'from a batch',
            isPublic: true,
            uploader: BOB,
          }),
        ),
      )
    })

    test('a failed file’s error and the message in Chinese with Accept-Language: zh', async () => {
      const reply = await send(t.app, 'batch-upload', bob.token, [{ name: 'x.png', data: GIF }, { name: 'a.zip', data: ZIP }], {}, { 'accept-language': 'zh' })
      expect(reply.body).toEqual(
        okBody(
          {
            total: 2,
            success: 0,
            failed: 2,
            results: [
              { original_name: 'x.png', status: 'failed', error: '文件名“x.png”的扩展名是 .png，但内容是 image/gif；请改名或发送正确的文件' },
              { original_name: 'a.zip', status: 'failed', error: `“a.zip”的类型为 application/zip，不被接受；允许的类型：${ALLOWED_TYPES.join(', ')}` },
            ],
          },
          '文件已处理',
        ),
      )
      const many = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` }))
      expect((await send(t.app, 'batch-upload', admin, many, {}, { 'accept-language': 'zh' })).body).toEqual(errorBody(400, '每批最多发送 20 个文件'))
    })

    test('21 files → 400 and nothing stored', async () => {
      const before = await stored()
      const parts = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` }))
      const reply = await batchUpload(admin, parts)
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, 'Send at most 20 files per batch'))
      expect(await stored()).toEqual(before)
    })

    test('20 files are accepted', async () => {
      const parts = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}.txt`, data: `file ${i}` }))
      const reply = await batchUpload(admin, parts)
      expect(reply.status).toBe(200)
      expect(reply.body.data).toMatchObject({ total: 20, success: 20, failed: 0 })
      expect(reply.body.data.results.map((item: { original_name: string }) => item.original_name)).toEqual(parts.map((part) => part.name))
    })

    test('no files → 400', async () => {
      const reply = await batchUpload(admin, [], { folder: 'x' })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(
        errorBody(400, 'No files: send them in the multipart field "files"', { errors: [{ field: 'files', message: 'is required' }] }),
      )
    })

    test('a bad folder → 400 and none of the files is kept', async () => {
      const before = await stored()
      const reply = await batchUpload(
        admin,
        [
          { name: 'a.txt', data: TEXT },
          { name: 'b.pdf', data: PDF },
        ],
        { folder: '../up' },
      )
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(BAD_FOLDER)
      expect(await stored()).toEqual(before)
    })

    test('no token → 401', async () => {
      const reply = await batchUpload(undefined, [{ name: 'a.txt', data: TEXT }])
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(errorBody(401, SIGN_IN))
    })
  })

  // ---- file-info ----------------------------------------------------------------------------------

  describe('file-info', () => {
    test('the detail; the download_url is valid for an hour from the time of reading', async () => {
      const file = await uploaded(admin, { name: 'info.gif', data: GIF }, { description: 'a pixel' })
      const later = '2024-03-15T11:00:00.000Z'
      t.clock.set(later)
      const reply = await req(t.app, 'GET', `${API}/file-info?file_id=${file.id}`, { token: admin })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(
        stamped(
          okBody(
            detail({
              id: file.id,
              ext: 'gif',
              name: 'info.gif',
              mime: 'image/gif',
              size: GIF.length,
              description: 'a pixel',
              readAt: later,
            }),
          ),
          later,
        ),
      )
    })

    test('an unknown id → 404', async () => {
      const id = crypto.randomUUID()
      const reply = await req(t.app, 'GET', `${API}/file-info?file_id=${id}`, { token: admin })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual(errorBody(404, `File ${id} does not exist`))
      const zh = await req(t.app, 'GET', `${API}/file-info?file_id=${id}`, { token: admin, headers: { 'accept-language': 'zh' } })
      expect(zh.body).toEqual(errorBody(404, `文件 ${id} 不存在`))
    })

    test('a file_id that is not a UUID → 400; a missing one → 400', async () => {
      const bad = await req(t.app, 'GET', `${API}/file-info?file_id=abc`, { token: admin })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual(invalidBody('file_id', 'must be a file id (UUID)'))
      const missing = await req(t.app, 'GET', `${API}/file-info`, { token: admin })
      expect(missing.status).toBe(400)
      expect(missing.body).toEqual(invalidBody('file_id', 'is required'))
    })

    test('no token → 401', async () => {
      const reply = await req(t.app, 'GET', `${API}/file-info?file_id=${crypto.randomUUID()}`)
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(errorBody(401, SIGN_IN))
    })
  })

  // ---- the list -----------------------------------------------------------------------------------

  describe('files list', () => {
    // four files on four days, of four sizes, two uploaders, two public
    let alpha: Expected, beta: Expected, gamma: Expected, delta: Expected

    beforeAll(async () => {
      await clearAll()
      const at = async (when: string, token: string, part: Part, fields: Record<string, string> = {}) => {
        t.clock.set(when)
        return (await uploaded(token, part, fields)).id
      }
      const A = '2024-03-10T08:00:00.000Z'
      const B = '2024-03-12T23:59:59.000Z'
      const C = '2024-03-14T00:00:00.000Z'
      const D = '2024-03-15T08:00:00.000Z'
      alpha = {
        id: await at(A, admin, { name: 'alpha.txt', data: TEXT }, { folder: 'docs', description: 'Quarterly REPORT' }),
        ext: 'txt',
        name: 'alpha.txt',
        mime: 'text/plain',
        size: TEXT.length,
        folder: 'docs',
        description: 'Quarterly REPORT',
        createdAt: A,
      }
      beta = {
        id: await at(B, admin, { name: 'beta.pdf', data: PDF }, { folder: 'docs/2024', is_public: 'true' }),
        ext: 'pdf',
        name: 'beta.pdf',
        mime: 'application/pdf',
        size: PDF.length,
        folder: 'docs/2024',
        isPublic: true,
        createdAt: B,
      }
      gamma = {
        id: await at(C, bob.token, { name: 'gamma.png', data: PNG }),
        ext: 'png',
        name: 'gamma.png',
        mime: 'image/png',
        size: PNG.length,
        uploader: BOB,
        createdAt: C,
      }
      delta = {
        id: await at(D, bob.token, { name: 'delta.gif', data: GIF }, { folder: 'docs', description: '100% team_photo', is_public: '1' }),
        ext: 'gif',
        name: 'delta.gif',
        mime: 'image/gif',
        size: GIF.length,
        folder: 'docs',
        description: '100% team_photo',
        isPublic: true,
        uploader: BOB,
        createdAt: D,
      }
      t.clock.set(NOW)
      // the sizes order alpha < delta < gamma < beta
      expect([TEXT.length, GIF.length, PNG.length, PDF.length]).toEqual([5, 42, 70, 90])
    })

    const list = (items: Expected[], page = 1, pageSize = 20, total = items.length, size?: number) => {
      const totalSize = size ?? items.reduce((sum, item) => sum + item.size, 0)
      return okBody({
        files: items.map(listItem),
        pagination: { page, page_size: pageSize, total, pages: Math.ceil(total / pageSize) },
        summary: { total_files: total, total_size: totalSize, total_size_formatted: `${totalSize} B` },
      })
    }

    const listed = (query: string, token = admin) => req(t.app, 'GET', `${API}/files${query}`, { token })

    test('admin: every file, newest first, page_size 20, with a summary; no url or download_url', async () => {
      const reply = await listed('')
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(list([delta, gamma, beta, alpha]))
    })

    test('another user sees only own files and public ones', async () => {
      const reply = await listed('', bob.token)
      expect(reply.body).toEqual(list([delta, gamma, beta]))
      const admins = await listed(`?uploaded_by=1`, bob.token)
      expect(admins.body).toEqual(list([beta]))
    })

    test('filters: folder (exact), search (name or description, ignoring case, % and _ literal), mime_type, uploaded_by', async () => {
      const cases: [string, Expected[]][] = [
        ['?folder=docs', [delta, alpha]],
        ['?folder=docs/2024', [beta]],
        ['?folder=docs/', [delta, alpha]],
        ['?folder=nothing', []],
        ['?search=report', [alpha]],
        ['?search=TA', [delta, beta]],
        ['?search=.PNG', [gamma]],
        [`?search=${encodeURIComponent('%')}`, [delta]],
        ['?search=a_p', []],
        ['?search=m_ph', [delta]],
        ['?mime_type=image/png', [gamma]],
        [`?mime_type=${encodeURIComponent('application/pdf')}`, [beta]],
        ['?mime_type=image', []],
        [`?uploaded_by=${bob.id}`, [delta, gamma]],
        ['?uploaded_by=1&folder=docs', [alpha]],
      ]
      for (const [query, items] of cases) {
        const reply = await listed(query)
        expect({ query, body: reply.body }).toEqual({ query, body: list(items) })
      }
    })

    test('date_from and date_to are whole UTC days, both included', async () => {
      const cases: [string, Expected[]][] = [
        ['?date_from=2024-03-12&date_to=2024-03-14', [gamma, beta]],
        ['?date_from=2024-03-13', [delta, gamma]],
        ['?date_to=2024-03-12', [beta, alpha]],
        ['?date_from=2024-03-15&date_to=2024-03-15', [delta]],
        ['?date_from=2024-03-16', []],
      ]
      for (const [query, items] of cases) {
        const reply = await listed(query)
        expect({ query, body: reply.body }).toEqual({ query, body: list(items) })
      }
    })

    test('sort_by name, size or created_at, with sort_order', async () => {
      const cases: [string, Expected[]][] = [
        ['?sort_by=name', [gamma, delta, beta, alpha]],
        ['?sort_by=name&sort_order=asc', [alpha, beta, delta, gamma]],
        ['?sort_by=size&sort_order=asc', [alpha, delta, gamma, beta]],
        ['?sort_by=size&sort_order=desc', [beta, gamma, delta, alpha]],
        ['?sort_by=created_at&sort_order=asc', [alpha, beta, gamma, delta]],
        ['?sort_order=asc', [alpha, beta, gamma, delta]],
      ]
      for (const [query, items] of cases) {
        const reply = await listed(query)
        expect({ query, body: reply.body }).toEqual({ query, body: list(items) })
      }
    })

    test('page and page_size choose a window; the summary counts every match', async () => {
      const all = [delta, gamma, beta, alpha]
      const size = all.reduce((sum, item) => sum + item.size, 0)
      expect((await listed('?page=1&page_size=3')).body).toEqual(list([delta, gamma, beta], 1, 3, 4, size))
      expect((await listed('?page=2&page_size=3')).body).toEqual(list([alpha], 2, 3, 4, size))
      expect((await listed('?page=3&page_size=3')).body).toEqual(list([], 3, 3, 4, size))
      expect((await listed('?page_size=500')).body).toEqual(list(all, 1, 100))
    })

    const badQueries: [string, unknown][] = [
      ['?sort_by=owner', invalidBody('sort_by', 'must be name, size or created_at')],
      ['?sort_order=up', invalidBody('sort_order', 'must be asc or desc')],
      ['?page=0', invalidBody('page', 'must be a whole number of at least 1')],
      ['?page_size=0', invalidBody('page_size', 'must be a whole number of at least 1')],
      ['?date_from=15.03.2024', invalidBody('date_from', 'must be a date written YYYY-MM-DD')],
      [
        '?date_to=2024-02-30',
        errorBody(400, 'date_to "2024-02-30" is not a real date', { errors: [{ field: 'date_to', message: 'is not a real date' }] }),
      ],
      ['?folder=../x', BAD_FOLDER],
    ]
    for (const [query, body] of badQueries)
      test(`${query} → 400`, async () => {
        const reply = await listed(query)
        expect(reply.status).toBe(400)
        expect(reply.body).toEqual(body)
      })

    test('no token → 401', async () => {
      const reply = await req(t.app, 'GET', `${API}/files`)
      expect(reply.status).toBe(401)
    })
  })

  // ---- who may do what ----------------------------------------------------------------------------

  describe('access', () => {
    let privateOfAdmin: string
    let publicOfAdmin: string
    let privateOfBob: string

    beforeAll(async () => {
      privateOfAdmin = (await uploaded(admin, { name: 'secret.txt', data: bytes('secret') })).id
      publicOfAdmin = (await uploaded(admin, { name: 'notice.txt', data: bytes('notice') }, { is_public: 'true' })).id
      privateOfBob = (await uploaded(bob.token, { name: 'mine.txt', data: bytes('mine') })).id
    })

    test("another user's private file → 404 on file-info, content, delete, batch-delete and presigned-url; it stays", async () => {
      const id = privateOfAdmin
      const notFound = errorBody(404, `File ${id} does not exist`)
      const info = await req(t.app, 'GET', `${API}/file-info?file_id=${id}`, { token: bob.token })
      expect([info.status, info.body]).toEqual([404, notFound])
      const content = await replyOf(await get(contentPath(id), bob.token))
      expect([content.status, content.body]).toEqual([404, notFound])
      const removed = await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: { file_id: id } })
      expect([removed.status, removed.body]).toEqual([404, notFound])
      const batch = await req(t.app, 'DELETE', `${API}/batch-delete`, { token: bob.token, body: { file_ids: [id] } })
      expect(batch.body).toEqual(
        okBody(
          { total: 1, success: 0, failed: 1, results: [{ file_id: id, status: 'failed', error: notFound.message }] },
          'Files processed',
        ),
      )
      const signed = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: id } })
      expect([signed.status, signed.body]).toEqual([404, notFound])
      expect(await rowOf(id)).toBeDefined()
      expect((await listed(bob.token)).map((file) => file.id)).not.toContain(id)
    })

    test("another user's public file: readable (file-info, content), but delete and presigned-url → 403", async () => {
      const id = publicOfAdmin
      const info = await req(t.app, 'GET', `${API}/file-info?file_id=${id}`, { token: bob.token })
      expect(info.body).toEqual(okBody(detail({ id, ext: 'txt', name: 'notice.txt', mime: 'text/plain', size: 6, isPublic: true })))
      const content = await get(contentPath(id), bob.token)
      expect(content.status).toBe(200)
      expect(await content.text()).toBe('notice')
      const forbidden = errorBody(403, `Only the uploader of file ${id} or a holder of files:manage may do this`)
      const removed = await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: { file_id: id } })
      expect([removed.status, removed.body]).toEqual([403, forbidden])
      const batch = await req(t.app, 'DELETE', `${API}/batch-delete`, { token: bob.token, body: { file_ids: [id] } })
      expect(batch.body).toEqual(
        okBody(
          { total: 1, success: 0, failed: 1, results: [{ file_id: id, status: 'failed', error: forbidden.message }] },
          'Files processed',
        ),
      )
      const signed = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: id } })
      expect([signed.status, signed.body]).toEqual([403, forbidden])
      expect(await rowOf(id)).toBeDefined()
      expect((await listed(bob.token)).map((file) => file.id)).toContain(id)
    })

    test('the admin (files:manage) sees, reads, signs and deletes a private file of another user', async () => {
      const id = privateOfBob
      expect((await listed(admin)).map((file) => file.id)).toContain(id)
      const info = await req(t.app, 'GET', `${API}/file-info?file_id=${id}`, { token: admin })
      expect(info.body).toEqual(okBody(detail({ id, ext: 'txt', name: 'mine.txt', mime: 'text/plain', size: 4, uploader: BOB })))
      const content = await get(contentPath(id), admin)
      expect(await content.text()).toBe('mine')
      const signed = await req(t.app, 'POST', `${API}/presigned-url`, { token: admin, body: { file_id: id } })
      expect(signed.status).toBe(200)
      const removed = await req(t.app, 'DELETE', `${API}/delete`, { token: admin, body: { file_id: id } })
      expect(removed.body).toEqual(okBody({ deleted: true, file_id: id }, 'File deleted'))
      expect(await rowOf(id)).toBeUndefined()
      expect((await objectsIn(t)).filter((key) => key.includes(id))).toEqual([])
    })

    /** The ids the list shows `token` (every page). */
    async function listed(token: string): Promise<{ id: string }[]> {
      const reply = await req(t.app, 'GET', `${API}/files?page_size=100`, { token })
      return reply.body.data.files
    }
  })

  // ---- content ------------------------------------------------------------------------------------

  describe('content', () => {
    const DATA = bytes('Hello, storage!\n')
    const NAME = '报告 2024.txt'
    const DISPOSITION = `attachment; filename="__ 2024.txt"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%202024.txt`
    let id: string

    beforeAll(async () => {
      id = (await uploaded(bob.token, { name: NAME, data: DATA })).id
    })

    test('with a bearer token → 200, the exact bytes and the headers', async () => {
      const response = await get(contentPath(id), bob.token)
      expect(response.status).toBe(200)
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(DATA)
      expect(response.headers.get('content-type')).toBe('text/plain')
      expect(response.headers.get('content-length')).toBe(String(DATA.length))
      expect(response.headers.get('etag')).toBe(`"${md5(DATA)}"`)
      expect(response.headers.get('accept-ranges')).toBe('bytes')
      expect(response.headers.get('content-disposition')).toBe(DISPOSITION)
    })

    test('Range bytes=0-3 → 206 with Content-Range', async () => {
      const response = await get(contentPath(id), bob.token, { range: 'bytes=0-3' })
      expect(response.status).toBe(206)
      expect(await response.text()).toBe('Hell')
      expect(response.headers.get('content-range')).toBe(`bytes 0-3/${DATA.length}`)
      expect(response.headers.get('content-length')).toBe('4')
      expect(response.headers.get('etag')).toBe(`"${md5(DATA)}"`)
    })

    test('Range bytes=-2 → the last two bytes; bytes=7- → from byte 7; an end past the size is cut', async () => {
      const suffix = await get(contentPath(id), bob.token, { range: 'bytes=-2' })
      expect(suffix.status).toBe(206)
      expect(await suffix.text()).toBe('!\n')
      expect(suffix.headers.get('content-range')).toBe(`bytes 14-15/16`)
      const open = await get(contentPath(id), bob.token, { range: 'bytes=7-' })
      expect(open.status).toBe(206)
      expect(await open.text()).toBe('storage!\n')
      expect(open.headers.get('content-range')).toBe(`bytes 7-15/16`)
      const past = await get(contentPath(id), bob.token, { range: 'bytes=10-999' })
      expect(past.status).toBe(206)
      expect(await past.text()).toBe('rage!\n')
      expect(past.headers.get('content-range')).toBe(`bytes 10-15/16`)
    })

    test('Range bytes=9999- → 416 with Content-Range bytes */size', async () => {
      const response = await get(contentPath(id), bob.token, { range: 'bytes=9999-' })
      expect(response.status).toBe(416)
      expect(response.headers.get('content-range')).toBe(`bytes */${DATA.length}`)
      expect(await response.text()).toBe('')
    })

    test('If-None-Match with the ETag → 304 without a body', async () => {
      const response = await get(contentPath(id), bob.token, { 'if-none-match': `W/"nope", "${md5(DATA)}"` })
      expect(response.status).toBe(304)
      expect(await response.text()).toBe('')
      expect(response.headers.get('etag')).toBe(`"${md5(DATA)}"`)
      const other = await get(contentPath(id), bob.token, { 'if-none-match': '"something-else"' })
      expect(other.status).toBe(200)
      await other.arrayBuffer()
    })

    test('download_count and last_accessed_at rise with a download or a range from byte 0; not with 304, 416 or a later range', async () => {
      const file = await uploaded(bob.token, { name: 'counted.txt', data: DATA })
      const expectDownloads = async (downloads: number, lastAccessedAt: string | null, at: string) => {
        const reply = await req(t.app, 'GET', `${API}/file-info?file_id=${file.id}`, { token: bob.token })
        const expected = detail({
          id: file.id,
          ext: 'txt',
          name: 'counted.txt',
          mime: 'text/plain',
          size: DATA.length,
          uploader: BOB,
          downloads,
          lastAccessedAt,
          readAt: at,
        })
        expect(reply.body).toEqual(stamped(okBody(expected), at))
        expect(await rowOf(file.id)).toMatchObject({ downloadCount: downloads, lastAccessedAt: lastAccessedAt && new Date(lastAccessedAt) })
      }
      await expectDownloads(0, null, NOW)

      const first = '2024-03-15T10:00:00.000Z'
      t.clock.set(first)
      await (await get(contentPath(file.id), bob.token)).arrayBuffer()
      await expectDownloads(1, first, first)

      const second = '2024-03-15T10:30:00.000Z'
      t.clock.set(second)
      await (await get(contentPath(file.id), bob.token, { range: 'bytes=0-3' })).arrayBuffer()
      await expectDownloads(2, second, second)

      const third = '2024-03-15T11:00:00.000Z'
      t.clock.set(third)
      for (const [headers, status] of [
        [{ range: 'bytes=4-' }, 206],
        [{ range: 'bytes=99-' }, 416],
        [{ 'if-none-match': `"${md5(DATA)}"` }, 304],
      ] as const) {
        const response = await get(contentPath(file.id), bob.token, headers)
        expect(response.status).toBe(status)
        await response.arrayBuffer()
      }
      await expectDownloads(2, second, third)
    })

    test('a public file needs no token; a private one without a token → 401', async () => {
      const open = await uploaded(bob.token, { name: 'open.txt', data: bytes('for everyone') }, { is_public: 'yes' })
      const response = await get(contentPath(open.id))
      expect(response.status).toBe(200)
      expect(await response.text()).toBe('for everyone')
      const closed = await replyOf(await get(contentPath(id)))
      expect(closed.status).toBe(401)
      expect(closed.headers.get('www-authenticate')).toBe('Bearer')
      expect(closed.body).toEqual(errorBody(401, SIGN_IN))
      const badToken = await replyOf(await get(contentPath(id), 'not-a-token'))
      expect(badToken.status).toBe(401)
    })

    test('an unknown id → 404; a path id that is not a UUID → 400', async () => {
      const unknown = crypto.randomUUID()
      const missing = await replyOf(await get(contentPath(unknown), admin))
      expect([missing.status, missing.body]).toEqual([404, errorBody(404, `File ${unknown} does not exist`)])
      const bad = await replyOf(await get(contentPath('abc'), admin))
      expect([bad.status, bad.body]).toEqual([400, invalidBody('id', 'must be a file id (UUID)')])
    })

    test('a name with a double quote, CR/LF and a Unicode line separator cannot inject headers', async () => {
      // sent raw in RFC 5987 form, so the quote and the line breaks reach the service as they are
      const name = 'q"uote\r\nSet-Cookie: a=b\u2028;x.txt'
      const boundary = 'storage-test-boundary'
      const body =
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(name)}\r\n` +
        `Content-Type: text/plain\r\n\r\nsome text\r\n--${boundary}--\r\n`
      const reply = await replyOf(
        await t.app.handle(
          new Request(`http://localhost${API}/upload`, {
            method: 'POST',
            body,
            headers: { authorization: `Bearer ${bob.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          }),
        ),
      )
      expect(reply.status).toBe(201)
      // the control characters are dropped from the name; the rest is kept
      expect(reply.body.data.original_name).toBe('q"uoteSet-Cookie: a=b\u2028;x.txt')
      const response = await get(contentPath(reply.body.data.id), bob.token)
      expect(response.status).toBe(200)
      expect(response.headers.get('set-cookie')).toBeNull()
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="q_uoteSet-Cookie: a=b__x.txt"; filename*=UTF-8''q%22uoteSet-Cookie%3A%20a%3Db%E2%80%A8%3Bx.txt`,
      )
      expect(await response.text()).toBe('some text')
    })

    test('accented names keep their letters in the ASCII fallback', async () => {
      const file = await uploaded(bob.token, { name: 'Café Ünïcode (1).txt', data: TEXT })
      const response = await get(contentPath(file.id), bob.token)
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="Cafe Unicode (1).txt"; filename*=UTF-8''Caf%C3%A9%20%C3%9Cn%C3%AFcode%20%281%29.txt`,
      )
      await response.arrayBuffer()
    })
  })

  // ---- signed links -------------------------------------------------------------------------------

  describe('signed links', () => {
    const DATA = bytes('signed bytes\n')
    let file: Awaited<ReturnType<typeof uploaded>>

    beforeAll(async () => {
      file = await uploaded(bob.token, { name: '签名 signed.txt', data: DATA })
    })

    test('the download_url of the upload returns the exact bytes without a token', async () => {
      expect(file.download_url).toEqual(signedUrl(file.id, 'txt', 3600))
      const response = await followLink(file.download_url)
      expect(response.status).toBe(200)
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(DATA)
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="__ signed.txt"; filename*=UTF-8''%E7%AD%BE%E5%90%8D%20signed.txt`,
      )
      expect(response.headers.get('content-type')).toBe('text/plain')
    })

    test('presigned-url {file_id, expires_in 60} → {presigned_url, expires_at clock + 60 s, expires_in 60}; the link works without a token', async () => {
      const reply = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id, expires_in: 60 } })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(okBody({ presigned_url: signedUrl(file.id, 'txt', 60), expires_at: iso(NOW_S + 60), expires_in: 60 }))
      const response = await followLink(reply.body.data.presigned_url)
      expect(response.status).toBe(200)
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(DATA)
    })

    test('expires_in defaults to 3600; 604800 is the most', async () => {
      const byDefault = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id } })
      expect(byDefault.body).toEqual(
        okBody({ presigned_url: signedUrl(file.id, 'txt', 3600), expires_at: iso(NOW_S + 3600), expires_in: 3600 }),
      )
      const week = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id, expires_in: 604800 } })
      expect(week.body).toEqual(
        okBody({ presigned_url: signedUrl(file.id, 'txt', 604800), expires_at: iso(NOW_S + 604800), expires_in: 604800 }),
      )
    })

    for (const expires_in of [0, 604801, 1.5, -1])
      test(`expires_in ${expires_in} → 400`, async () => {
        const reply = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id, expires_in } })
        expect(reply.status).toBe(400)
        expect(reply.body).toEqual(invalidBody('expires_in', 'must be a whole number of seconds from 1 to 604800'))
      })

    test('presigned-url of an unknown file → 404; a bad file_id → 400; no token → 401', async () => {
      const unknown = crypto.randomUUID()
      const missing = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: unknown } })
      expect([missing.status, missing.body]).toEqual([404, errorBody(404, `File ${unknown} does not exist`)])
      const bad = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: 'abc' } })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual(invalidBody('file_id', 'must be a file id (UUID)'))
      const anonymous = await req(t.app, 'POST', `${API}/presigned-url`, { body: { file_id: file.id } })
      expect(anonymous.status).toBe(401)
    })

    if (!isS3) {
      test('local: the link works until its expiry second, then → 403', async () => {
        const reply = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id, expires_in: 60 } })
        const link: string = reply.body.data.presigned_url
        t.clock.advance(60_000)
        const last = await followLink(link)
        expect(last.status).toBe(200)
        await last.arrayBuffer()
        t.clock.advance(1_000)
        const expired = await replyOf(await followLink(link))
        expect(expired.status).toBe(403)
        expect(expired.body).toEqual(stamped(errorBody(403, BAD_LINK), iso(NOW_S + 61)))
      })

      test('local: a link with one character of the signature changed, or another expiry, or another file → 403', async () => {
        const link: string = (
          await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id, expires_in: 60 } })
        ).body.data.presigned_url
        const signature = new URL(link).searchParams.get('signature')!
        const flipped = `${signature.slice(0, 10)}${signature[10] === 'a' ? 'b' : 'a'}${signature.slice(11)}`
        const other = await uploaded(bob.token, { name: 'other.txt', data: TEXT })
        const tampered = [
          link.replace(signature, flipped),
          link.replace(signature, signature.toUpperCase() === signature ? signature.toLowerCase() : signature.toUpperCase()),
          link.replace(`expires=${NOW_S + 60}`, `expires=${NOW_S + 6000}`),
          link.replace(file.id, other.id),
          link.replace(/&signature=.*$/, ''),
          link.replace(/expires=\d+&/, ''),
        ]
        for (const url of tampered) {
          const reply = await replyOf(await followLink(url))
          expect({ url, status: reply.status, body: reply.body }).toEqual({ url, status: 403, body: errorBody(403, BAD_LINK) })
        }
      })

      test('local: a valid link to a deleted file → 404', async () => {
        const gone = await uploaded(bob.token, { name: 'gone.txt', data: TEXT })
        await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: { file_id: gone.id } })
        const reply = await replyOf(await followLink(gone.download_url))
        expect([reply.status, reply.body]).toEqual([404, errorBody(404, `File ${gone.id} does not exist`)])
      })
    } else {
      test('S3: a link of expires_in 1 stops working after 2 s (the S3 server judges by its own clock)', async () => {
        const reply = await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id, expires_in: 1 } })
        expect(reply.body.data.expires_in).toBe(1)
        const link: string = reply.body.data.presigned_url
        await Bun.sleep(2_000)
        const expired = await fetch(link)
        expect(expired.status).toBe(403)
        expect(await expired.text()).toContain('Request has expired')
      }, 10_000)
    }
  })

  // ---- delete -------------------------------------------------------------------------------------

  describe('delete', () => {
    test('delete {file_id} → {deleted: true, file_id}; object and row gone; again → 404', async () => {
      const file = await uploaded(bob.token, { name: 'bye.pdf', data: PDF })
      const before = await stored()
      const reply = await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: { file_id: file.id } })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(okBody({ deleted: true, file_id: file.id }, 'File deleted'))
      expect(await stored()).toEqual({
        rows: before.rows.filter((id) => id !== file.id),
        objects: before.objects.filter((key) => key !== `2024/03/${file.id}.pdf ${PDF.length}`),
      })
      const again = await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: { file_id: file.id } })
      expect(again.status).toBe(404)
      expect(again.body).toEqual(errorBody(404, `File ${file.id} does not exist`))
      const content = await replyOf(await get(contentPath(file.id), bob.token))
      expect(content.status).toBe(404)
    })

    test('delete with a file_id that is not a UUID, or none → 400', async () => {
      const bad = await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: { file_id: 'abc' } })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual(invalidBody('file_id', 'must be a file id (UUID)'))
      const none = await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: {} })
      expect(none.status).toBe(400)
      expect(none.body).toEqual(invalidBody('file_id', 'is required'))
    })

    test('batch-delete with mixed ids → a result per id, "failed" with an error for unknown ones', async () => {
      const a = await uploaded(bob.token, { name: 'a.txt', data: TEXT })
      const b = await uploaded(bob.token, { name: 'b.gif', data: GIF })
      const unknown = crypto.randomUUID()
      const before = await stored()
      const reply = await req(t.app, 'DELETE', `${API}/batch-delete`, {
        token: bob.token,
        body: { file_ids: [a.id, unknown, b.id, 'not-a-uuid'] },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(
        okBody(
          {
            total: 4,
            success: 2,
            failed: 2,
            results: [
              { file_id: a.id, status: 'success' },
              { file_id: unknown, status: 'failed', error: `File ${unknown} does not exist` },
              { file_id: b.id, status: 'success' },
              { file_id: 'not-a-uuid', status: 'failed', error: 'File not-a-uuid does not exist' },
            ],
          },
          'Files processed',
        ),
      )
      const again = await req(t.app, 'DELETE', `${API}/batch-delete`, { token: bob.token, body: { file_ids: [a.id] }, headers: { 'accept-language': 'zh' } })
      expect(again.body).toEqual(
        okBody({ total: 1, success: 0, failed: 1, results: [{ file_id: a.id, status: 'failed', error: `文件 ${a.id} 不存在` }] }, '文件已处理'),
      )
      expect(await stored()).toEqual({
        rows: before.rows.filter((id) => id !== a.id && id !== b.id),
        objects: before.objects.filter((key) => !key.includes(a.id) && !key.includes(b.id)),
      })
    })

    test('batch-delete of 101 ids → 400, of none → 400; nothing deleted', async () => {
      const file = await uploaded(bob.token, { name: 'kept.txt', data: TEXT })
      const before = await stored()
      const many = await req(t.app, 'DELETE', `${API}/batch-delete`, {
        token: bob.token,
        body: { file_ids: [file.id, ...Array.from({ length: 100 }, () => crypto.randomUUID())] },
      })
      expect(many.status).toBe(400)
      expect(many.body).toEqual(invalidBody('file_ids', 'must have at most 100 items'))
      const none = await req(t.app, 'DELETE', `${API}/batch-delete`, { token: bob.token, body: { file_ids: [] } })
      expect(none.status).toBe(400)
      expect(none.body).toEqual(invalidBody('file_ids', 'must have at least 1 item'))
      expect(await stored()).toEqual(before)
    })

    test('no token → 401', async () => {
      const reply = await req(t.app, 'DELETE', `${API}/delete`, { body: { file_id: crypto.randomUUID() } })
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(errorBody(401, SIGN_IN))
    })
  })

  // ---- config -------------------------------------------------------------------------------------

  describe('fixed after review', () => {
    test('HEAD gives the headers without counting a download', async () => {
      const file = await uploaded(admin, { name: 'head.txt', data: TEXT })
      const head = await t.app.handle(
        new Request(`http://localhost${contentPath(file.id)}`, { method: 'HEAD', headers: { authorization: `Bearer ${admin}` } }),
      )
      expect(head.status).toBe(200)
      // Elysia 1.4 answers HEAD through the GET route and sets Content-Length from the (empty) body it gets
      expect(head.headers.get('etag')).toBe(`"${md5(TEXT)}"`)
      expect(await head.text()).toBe('')
      expect(await rowOf(file.id)).toMatchObject({ downloadCount: 0, lastAccessedAt: null })
    })

    test('a repeated id in a batch delete fails the second time', async () => {
      const file = await uploaded(admin, { name: 'twice.txt', data: TEXT })
      const reply = await req(t.app, 'DELETE', `${API}/batch-delete`, { token: admin, body: { file_ids: [file.id, file.id] } })
      expect(reply.body.data).toEqual({
        total: 2,
        success: 1,
        failed: 1,
        results: [
          { file_id: file.id, status: 'success' },
          { file_id: file.id, status: 'failed', error: `File ${file.id} does not exist` },
        ],
      })
    })

    test('a long name keeps whole characters and its extension', async () => {
      const name = `${'a'.repeat(254)}😀.txt`
      const file = await uploaded(admin, { name, data: TEXT })
      expect(file.original_name).toBe(`${'a'.repeat(251)}.txt`)
    })

    if (!isS3)
      test('a link works until the expires_at it advertises, to the millisecond', async () => {
        const file = await uploaded(admin, { name: 'edge.txt', data: TEXT })
        t.clock.set('2024-03-15T09:30:00.900Z')
        const link = (await req(t.app, 'POST', `${API}/presigned-url`, { token: admin, body: { file_id: file.id, expires_in: 60 } })).body
          .data
        expect(link.expires_at).toBe('2024-03-15T09:31:00.000Z')
        t.clock.set('2024-03-15T09:31:00.000Z')
        expect((await followLink(link.presigned_url)).status).toBe(200)
        t.clock.set('2024-03-15T09:31:01.000Z')
        expect((await followLink(link.presigned_url)).status).toBe(403)
      })
  })

  describe('config', () => {
    test('limits (UPLOAD_QUOTA by default 2 GiB), the nine allowed types, the endpoint and the features of this store', async () => {
      const reply = await req(t.app, 'GET', `${API}/config`, { token: bob.token })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(
        okBody({
          max_file_size: 104857600,
          max_file_size_formatted: '100.00 MB',
          upload_quota: 2147483648,
          upload_quota_formatted: '2.00 GB',
          allowed_types: ALLOWED_TYPES,
          storage_endpoint: isS3 ? `${s3!.endpoint}/${BUCKET}` : `${PUBLIC_URL}/api/v1/storage`,
          features: { multipart_upload: isS3, resumable_upload: false, image_processing: false, video_processing: false },
        }),
      )
    })

    test('no token → 401', async () => {
      const reply = await req(t.app, 'GET', `${API}/config`)
      expect(reply.status).toBe(401)
    })
  })

  // ---- S3 down: must stay the last section of the S3 run -----------------------------------------

  if (isS3)
    describe('when the S3 server stops', () => {
      test('file endpoints → 503; the rest of the service works and /health says storage is down', async () => {
        const file = await uploaded(bob.token, { name: 'last.txt', data: TEXT })
        await s3!.stop()
        // the service keeps its last probe for two seconds
        await Bun.sleep(2_100)
        const unavailable = errorBody(503, UNAVAILABLE)
        const replies: [string, Reply][] = [
          ['upload', await upload(bob.token, [{ name: 'a.txt', data: TEXT }])],
          ['batch-upload', await batchUpload(bob.token, [{ name: 'a.txt', data: TEXT }])],
          ['files', await req(t.app, 'GET', `${API}/files`, { token: bob.token })],
          ['file-info', await req(t.app, 'GET', `${API}/file-info?file_id=${file.id}`, { token: bob.token })],
          ['content', await replyOf(await get(contentPath(file.id), bob.token))],
          ['presigned-url', await req(t.app, 'POST', `${API}/presigned-url`, { token: bob.token, body: { file_id: file.id } })],
          ['delete', await req(t.app, 'DELETE', `${API}/delete`, { token: bob.token, body: { file_id: file.id } })],
          ['config', await req(t.app, 'GET', `${API}/config`, { token: bob.token })],
        ]
        for (const [what, reply] of replies)
          expect({ what, status: reply.status, body: reply.body }).toEqual({ what, status: 503, body: unavailable })
        expect(await rowOf(file.id)).toBeDefined()

        const departments = await req(t.app, 'GET', '/api/v1/public/departments')
        expect(departments.status).toBe(200)
        expect(departments.body).toEqual(okBody([]))
        const health = await req(t.app, 'GET', '/health')
        expect(health.status).toBe(503)
        expect(health.body).toEqual({
          ...okBody(
            { status: 'degraded', database: 'up', storage: 'down', checks: healthyChecks({ storage: 'down' }) },
            'The file store does not answer; file endpoints answer 503',
          ),
          code: 503,
        })
      }, 20_000)
    })
})
