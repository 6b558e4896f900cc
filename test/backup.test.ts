import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import pkg from '../package.json'
import { openDatabase } from '../src/db/client'
import { migrate } from '../src/db/migrate'
import { createArchiveWriter, readArchive } from '../src/modules/backups/archive'
import { writeBackup } from '../src/modules/backups/backup'
import { checksumLine, MANIFEST_CHECKSUM_ENTRY, MANIFEST_ENTRY, type Manifest } from '../src/modules/backups/manifest'
import { knownMigrations } from '../src/modules/backups/migrations'
import { databaseFiles } from '../src/modules/backups/locations'
import { restoreBackup } from '../src/modules/backups/restore'
import { listArchives } from '../src/modules/backups/retention'
import { ADMIN_PASSWORD, DEFAULT_MIN_FREE_BYTES, healthyData, loginAdmin, req, startApp, tempDir, type TestApp } from './helpers'
import { call, signIn, startServer } from './server-process'

const ROOT = join(import.meta.dir, '..')
const JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long'

const dirs: string[] = []
const newDir = () => {
  const dir = tempDir('workforce-backup-')
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** The settings of a data location in `dir`: the service's, the backup's and the restore's. */
const locationOf = (dir: string) => ({
  DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
  STORAGE_URL: `file:${join(dir, 'files')}`,
  BACKUP_DIR: join(dir, 'backups'),
})

/** Runs `bun src/cli/<script>.ts` (or `bun run <script>` with `viaPackage`) as its own process. */
async function run(script: 'backup' | 'restore', env: Record<string, string>, args: string[] = [], viaPackage = false) {
  const command = viaPackage ? ['bun', 'run', script, ...args] : ['bun', join(ROOT, 'src', 'cli', `${script}.ts`), ...args]
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr, lines: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line)) }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const randomText = (bytes: number) => randomBytes(bytes).toString('base64')

async function uploadOver(base: string, token: string, name: string, content: string): Promise<string> {
  const form = new FormData()
  form.append('file', new File([content], name))
  const response = await fetch(`${base}/api/v1/storage/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
  const body = (await response.json()) as { data: { id: string } }
  if (response.status !== 201) throw new Error(`upload failed: ${JSON.stringify(body)}`)
  return body.data.id
}

async function contentOf(t: TestApp, token: string, id: string): Promise<Uint8Array> {
  const response = await t.app.handle(
    new Request(`http://localhost/api/v1/storage/files/${id}/content`, { headers: { authorization: `Bearer ${token}` } }),
  )
  expect(response.status).toBe(200)
  return new Uint8Array(await response.arrayBuffer())
}

describe('a backup taken while the service writes, restored elsewhere', () => {
  test('the restored service has every write acknowledged before the backup began, the files bytes, and integrity_check ok', async () => {
    const source = newDir()
    const server = await startServer({ ...locationOf(source), ADMIN_PASSWORD, JWT_SECRET })
    try {
      const token = await signIn(server.base, 'admin', ADMIN_PASSWORD)
      const contents = { 'minutes.txt': randomText(300_000), 'notes.txt': randomText(5_000) }
      const ids: Record<string, string> = {}
      for (const [name, content] of Object.entries(contents)) ids[name] = await uploadOver(server.base, token, name, content)

      // two writers, each creating departments one after another until told to stop
      const acknowledged: { name: string; at: number }[] = []
      const answers: number[] = []
      let writing = true
      let next = 0
      const writer = async () => {
        while (writing) {
          const name = `Department ${next++}`
          const reply = await call(server.base, 'POST', '/api/v1/admin/departments', { token, body: { name } })
          answers.push(reply.status)
          if (reply.status === 201) acknowledged.push({ name, at: performance.now() })
        }
      }
      const writers = [writer(), writer()]
      while (acknowledged.length < 40) await Bun.sleep(5)

      const began = performance.now()
      const before = acknowledged.map((write) => write.name)
      const backup = await run('backup', locationOf(source), [], true)
      const ended = performance.now()
      writing = false
      await Promise.all(writers)

      expect(backup.stderr).toBe('$ bun src/cli/backup.ts\n')
      expect(backup.code).toBe(0)
      // the writers went on while the backup ran, and none of them was refused
      expect(acknowledged.filter((write) => write.at > began && write.at < ended).length).toBeGreaterThan(0)
      expect(answers.every((status) => status === 201)).toBe(true)
      const [archive] = await listArchives(join(source, 'backups'))
      expect(backup.lines).toEqual([
        expect.objectContaining({
          level: 'info',
          message: 'backup written',
          archive: join(source, 'backups', archive.name),
          migration: knownMigrations().at(-1)!.tag,
          objects: 2,
          pruned: [],
        }),
      ])

      const target = newDir()
      const restored = await run('restore', locationOf(target), [join(source, 'backups', archive.name)], true)
      expect(restored.code).toBe(0)
      expect(restored.lines).toEqual([
        expect.objectContaining({
          level: 'info',
          message: 'backup restored',
          database: join(target, 'workforce.db'),
          storage: join(target, 'files'),
          objects: 2,
          made_by: pkg.version,
        }),
      ])

      const t = await startApp({ dir: target })
      try {
        const names = new Set(
          (await t.deps.database.client.execute('SELECT name FROM departments')).rows.map((row) => String(row.name)),
        )
        expect(before.filter((name) => !names.has(name))).toEqual([])
        // nothing that was never written, either
        const attempted = new Set(Array.from({ length: next }, (_, i) => `Department ${i}`))
        expect([...names].filter((name) => !attempted.has(name))).toEqual([])

        const restoredToken = await loginAdmin(t.app)
        for (const [name, content] of Object.entries(contents))
          expect(new TextDecoder().decode(await contentOf(t, restoredToken, ids[name]))).toBe(content)
        const integrity = await t.deps.database.client.execute('PRAGMA integrity_check')
        expect(integrity.rows.map((row) => row[0])).toEqual(['ok'])
        const health = await req(t.app, 'GET', '/health')
        expect(health.body.data).toEqual(healthyData())
      } finally {
        t.close()
      }
    } finally {
      await server.stop()
    }
  }, 60_000)
})

describe('backups in the running service', () => {
  test('with BACKUP_INTERVAL_HOURS set the service makes its first backup at start and /health shows its age; SIGTERM still exits 0', async () => {
    const dir = newDir()
    const server = await startServer({ ...locationOf(dir), ADMIN_PASSWORD, JWT_SECRET, BACKUP_INTERVAL_HOURS: '24' })
    let written: { archive?: string } | undefined
    try {
      const deadline = Date.now() + 20_000
      while (!written && Date.now() < deadline) {
        await Bun.sleep(20)
        written = server.output.map((line) => JSON.parse(line)).find((line) => line.message === 'backup written')
      }
      expect(written).toEqual(expect.objectContaining({ level: 'info', archive: expect.stringMatching(/workforce-backup-\d{8}T\d{6}Z\.tar\.gz$/) }))
      expect(readdirSync(join(dir, 'backups'))).toEqual([basename(written!.archive!)])
      const health = await call(server.base, 'GET', '/health')
      expect(health.body.data).toEqual(healthyData({ last_backup_age_seconds: expect.any(Number) }, { disk_min_free_bytes: DEFAULT_MIN_FREE_BYTES }))
      expect(health.body.data.last_backup_age_seconds).toBeLessThan(60)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    expect(server.errors.filter(Boolean)).toEqual([])
  }, 40_000)
})

describe('restore refuses what it must not restore', () => {
  let source: string
  let archive: string
  let manifest: Manifest

  beforeAll(async () => {
    source = newDir()
    const t = await startApp({ dir: source })
    const token = await loginAdmin(t.app)
    expect((await req(t.app, 'POST', '/api/v1/admin/departments', { token, body: { name: 'Research' } })).status).toBe(201)
    const form = new FormData()
    form.append('file', new File([randomText(20_000)], 'report.txt'))
    const upload = await t.app.handle(
      new Request('http://localhost/api/v1/storage/upload', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }),
    )
    expect(upload.status).toBe(201)
    t.close()
    const backup = await run('backup', locationOf(source))
    expect(backup.code).toBe(0)
    archive = backup.lines[0].archive
    manifest = JSON.parse(await entryText(archive, MANIFEST_ENTRY))
  })

  async function entryText(path: string, name: string): Promise<string> {
    let text = ''
    await readArchive(path, async (header, bytes) => {
      const chunks: Uint8Array[] = []
      for await (const chunk of bytes) chunks.push(chunk)
      if (header.name === name) text = Buffer.concat(chunks).toString('utf8')
    })
    return text
  }

  /** A copy of the archive with entries changed by `edit` (null drops one); the manifest's checksum is kept unless `rechecksum`. */
  async function tampered(
    edit: { entry?: (name: string, bytes: Buffer) => Buffer | null; manifest?: (manifest: Manifest) => unknown; extra?: [string, string] },
    rechecksum = false,
  ): Promise<string> {
    const entries: [string, Buffer][] = []
    await readArchive(archive, async (header, bytes) => {
      const chunks: Uint8Array[] = []
      for await (const chunk of bytes) chunks.push(chunk)
      entries.push([header.name, Buffer.concat(chunks)])
    })
    const path = join(newDir(), 'tampered.tar.gz')
    const writer = createArchiveWriter(path)
    let manifestBytes: Buffer | null = null
    for (const [name, bytes] of entries) {
      let content: Buffer | null = bytes
      if (name === MANIFEST_ENTRY && edit.manifest) content = Buffer.from(JSON.stringify(edit.manifest(JSON.parse(bytes.toString()))))
      else if (name === MANIFEST_CHECKSUM_ENTRY && rechecksum) content = Buffer.from(checksumLine(sha256(manifestBytes!), MANIFEST_ENTRY))
      else if (edit.entry) content = edit.entry(name, bytes)
      if (name === MANIFEST_ENTRY) manifestBytes = content
      if (name === MANIFEST_ENTRY && edit.extra) await writer.addBytes(edit.extra[0], Buffer.from(edit.extra[1]), new Date())
      if (content) await writer.addBytes(name, content, new Date())
    }
    await writer.finish()
    return path
  }

  /** Restores `path` into a location that does not exist yet; a refusal leaves nothing, not even its folder. */
  async function refusedRestore(path: string) {
    const parent = newDir()
    const target = join(parent, 'data')
    const result = await run('restore', locationOf(target), [path])
    expect(readdirSync(parent)).toEqual([])
    return result
  }

  test('the archive is a gzipped tar with the database, the objects and the manifest, every entry checksummed', async () => {
    const names: string[] = []
    await readArchive(archive, async (header, bytes) => {
      for await (const _ of bytes);
      names.push(header.name)
    })
    const object = manifest.entries[1].name
    expect(names).toEqual(['database.db', object, MANIFEST_ENTRY, MANIFEST_CHECKSUM_ENTRY])
    expect(object).toMatch(/^files\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.txt$/)
    expect(manifest).toEqual({
      format: 'workforce-backup',
      format_version: 1,
      service_version: pkg.version,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      migration: { tag: knownMigrations().at(-1)!.tag, created_at: knownMigrations().at(-1)!.createdAt, applied: knownMigrations().length },
      database: { entry: 'database.db', rows: expect.objectContaining({ departments: 1, files: 1, users: 1, __drizzle_migrations: knownMigrations().length }) },
      files: { store: 'file', included: true, objects: 1, bytes: manifest.entries[1].size },
      entries: [
        { name: 'database.db', size: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { name: object, size: manifest.entries[1].size, sha256: sha256(readFileSync(join(source, ...object.split('/')))) },
      ],
    })
    expect(await entryText(archive, MANIFEST_CHECKSUM_ENTRY)).toBe(checksumLine(sha256(Buffer.from(await entryText(archive, MANIFEST_ENTRY))), MANIFEST_ENTRY))
  })

  test('a byte flipped anywhere in the archive → refused as damaged, exit 1, nothing written', async () => {
    const bytes = readFileSync(archive)
    for (const at of [Math.floor(bytes.length / 2), 40, bytes.length - 6]) {
      const path = join(newDir(), 'flipped.tar.gz')
      const copy = Buffer.from(bytes)
      copy[at] ^= 0x20
      writeFileSync(path, copy)
      const result = await refusedRestore(path)
      expect(result.code).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(new RegExp(`^Cannot restore ${path}: the archive is damaged \\(.+\\); nothing was restored\\n$`))
    }
  })

  test('a cut-off archive → refused as damaged', async () => {
    const path = join(newDir(), 'short.tar.gz')
    writeFileSync(path, readFileSync(archive).subarray(0, 2000))
    const result = await refusedRestore(path)
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`Cannot restore ${path}: the archive is damaged (unexpected end of file); nothing was restored\n`)
  })

  test('entries that do not match the manifest, or a manifest that does not match its checksum → refused, naming the entry', async () => {
    const object = manifest.entries[1].name
    const latest = knownMigrations().at(-1)!
    const cases: [string, string, string][] = [
      [
        "an object's bytes changed (a valid gzip: only the checksum sees it)",
        await tampered({ entry: (name, bytes) => (name === object ? Buffer.concat([Buffer.from('X'), bytes.subarray(1)]) : bytes) }),
        `the archive is damaged (${object} does not match its checksum in the manifest)`,
      ],
      ['an object missing', await tampered({ entry: (name, bytes) => (name === object ? null : bytes) }), `the archive is damaged (${object} is listed in its manifest but missing)`],
      [
        'an entry the manifest does not list',
        await tampered({ extra: ['files/2024/01/extra.txt', 'extra'] }),
        'the archive is damaged (files/2024/01/extra.txt is not in its manifest)',
      ],
      [
        'the manifest changed, its checksum not',
        await tampered({ manifest: (m) => ({ ...m, created_at: '2020-01-01T00:00:00.000Z' }) }),
        'the archive is damaged (manifest.json does not match manifest.json.sha256)',
      ],
      [
        'a row count changed in the manifest and the checksum redone',
        await tampered({ manifest: (m) => ({ ...m, database: { ...m.database, rows: { ...m.database.rows, departments: 2 } } }) }, true),
        'its database has 1 rows in departments where its manifest counts 2',
      ],
      [
        'a name that would leave the folder',
        await tampered({ extra: ['files/../../escape.txt', 'x'] }),
        'the archive is damaged ("files/../../escape.txt" is not a name a backup writes)',
      ],
      [
        'an archive of a newer version',
        await tampered(
          { manifest: (m) => ({ ...m, service_version: '9.0.0', migration: { tag: '0099_future', created_at: latest.createdAt + 1, applied: 99 } }) },
          true,
        ),
        `its database is at migration 0099_future, newer than this version of Workforce (${pkg.version}, migration ${latest.tag}) knows; it was made by Workforce 9.0.0: restore it with that version or later`,
      ],
      [
        'a newer archive format',
        await tampered({ manifest: (m) => ({ ...m, service_version: '9.0.0', format_version: 2 }) }, true),
        `it is in backup format 2, made by Workforce 9.0.0; this version (${pkg.version}) reads format 1: restore it with Workforce 9.0.0 or later`,
      ],
      [
        'a tar that is not a Workforce backup',
        await tampered({ entry: (name, bytes) => (name.startsWith('manifest') ? null : bytes), extra: ['README', 'hello'] }),
        'it holds "README": it is not a Workforce backup',
      ],
    ]
    for (const [, path, problem] of cases) {
      const result = await refusedRestore(path)
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: `Cannot restore ${path}: ${problem}; nothing was restored\n` })
    }
  }, 60_000)

  test('a data location that is not empty → refused, exit 1, what is there left as it was', async () => {
    const withDatabase = newDir()
    writeFileSync(join(withDatabase, 'workforce.db'), 'precious')
    const withFiles = newDir()
    mkdirSync(join(withFiles, 'files', '2024'), { recursive: true })
    writeFileSync(join(withFiles, 'files', 'keep.txt'), 'keep')
    // a copy of the source's data location: its own folder may still be held by a connection
    // the collector has not closed yet, which would take its -wal and -shm away mid-test
    const inUse = newDir()
    cpSync(source, inUse, { recursive: true })
    for (const [dir, occupant] of [
      [withDatabase, join(withDatabase, 'workforce.db')],
      [withFiles, `${join(withFiles, 'files')} (2 entries)`],
      [inUse, [...databaseFiles(join(inUse, 'workforce.db')).filter((file) => existsSync(file)), `${join(inUse, 'files')} (2 entries)`].join(', ')],
    ]) {
      const before = readdirSync(dir, { recursive: true }).sort()
      const result = await run('restore', locationOf(dir), [archive])
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `Refusing to restore: the data location is not empty (${occupant}). A restore writes only where nothing is: move those away, or point DATABASE_URL and STORAGE_URL at an empty location\n`,
      })
      expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before)
    }
    expect(readFileSync(join(withDatabase, 'workforce.db'), 'utf8')).toBe('precious')
  })

  test('no archive, no argument, a libSQL server as the target → clear refusals', async () => {
    const target = newDir()
    const missing = await run('restore', locationOf(target), [join(target, 'nope.tar.gz')])
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({ code: 1, stderr: `There is no archive at ${join(target, 'nope.tar.gz')}\n` })
    const usage = await run('restore', locationOf(target))
    expect(usage.code).toBe(2)
    expect(usage.stderr).toStartWith('usage: bun run restore <archive.tar.gz>\n')
    const server = await run('restore', { ...locationOf(target), DATABASE_URL: 'http://127.0.0.1:9' }, [archive])
    expect({ code: server.code, stderr: server.stderr }).toEqual({
      code: 1,
      stderr:
        "Cannot restore into http://127.0.0.1:9: a restore writes an embedded database file. Restore with DATABASE_URL=file:<path>, then load that file into the libSQL server with the server's own tools\n",
    })
    const s3 = await run('restore', { ...locationOf(target), STORAGE_URL: 's3://workforce-files' }, [archive])
    expect({ code: s3.code, stderr: s3.stderr }).toEqual({
      code: 1,
      stderr: `Cannot restore ${archive}: it holds file objects, but STORAGE_URL names an S3 bucket. Restore with STORAGE_URL=file:<an empty folder>, then copy that folder's objects into the bucket; nothing was restored\n`,
    })
    expect(readdirSync(target)).toEqual([])
  })
})

describe('backup refusals and other stores', () => {
  test('a libSQL server or a missing database → exit 1 with the reason; no archive', async () => {
    const dir = newDir()
    const server = await run('backup', { ...locationOf(dir), DATABASE_URL: 'http://127.0.0.1:9' })
    expect({ code: server.code, stderr: server.stderr }).toEqual({
      code: 1,
      stderr:
        'Backup failed: Cannot back up http://127.0.0.1:9: a backup copies the embedded database file; with a libSQL server (DATABASE_URL=libsql://, http(s)://, ws(s)://) use the server\'s own backups (see docs/operations.md, "Backups")\n',
    })
    const missing = await run('backup', locationOf(dir))
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 1,
      stderr: `Backup failed: Nothing to back up: there is no database file at ${join(dir, 'workforce.db')} (DATABASE_URL)\n`,
    })
    expect(readdirSync(dir)).toEqual([])
    const setting = await run('backup', { ...locationOf(dir), BACKUP_KEEP: 'all' })
    expect({ code: setting.code, stderr: setting.stderr }).toEqual({ code: 1, stderr: 'Invalid setting BACKUP_KEEP: expected a whole number, got "all"\n' })
  })

  test('with an S3 store the objects are left to the bucket, said in the manifest; restoring such an archive says so', async () => {
    const dir = newDir()
    const t = await startApp({ dir })
    t.close()
    const s3 = { kind: 's3', bucket: 'workforce-files', region: 'us-east-1', forcePathStyle: true } as const
    const result = await writeBackup({ databaseUrl: t.deps.config.databaseUrl, storage: s3, dir: join(dir, 'backups'), now: new Date('2024-03-15T09:30:00Z') })
    expect(result.name).toBe('workforce-backup-20240315T093000Z.tar.gz')
    expect(result.manifest.files).toEqual({
      store: 's3',
      included: false,
      objects: 0,
      bytes: 0,
      note: "the objects stay in bucket workforce-files: the bucket's versioning or replication is their backup",
    })
    expect(result.manifest.entries.map((entry) => entry.name)).toEqual(['database.db'])

    const target = newDir()
    const restored = await restoreBackup(result.path, { databaseUrl: `file:${join(target, 'workforce.db')}`, storage: { kind: 'file', dir: join(target, 'files') } })
    expect(restored.notes).toEqual([
      "the archive holds no file objects (the objects stay in bucket workforce-files: the bucket's versioning or replication is their backup): point STORAGE_URL at that bucket, or the files' downloads will fail",
    ])
    expect(readdirSync(target)).toEqual(['workforce.db'])
  })

  test('an archive from before the newest migration restores, and the service migrates it at start', async () => {
    const dir = newDir()
    const known = knownMigrations()
    const older = join(newDir(), 'drizzle')
    cpSync(join(ROOT, 'drizzle'), older, { recursive: true })
    const journal = JSON.parse(readFileSync(join(older, 'meta', '_journal.json'), 'utf8'))
    journal.entries = journal.entries.slice(0, -1)
    writeFileSync(join(older, 'meta', '_journal.json'), JSON.stringify(journal))
    const database = await openDatabase(`file:${join(dir, 'workforce.db')}`)
    expect(await migrate(database, older)).toBe(known.length - 1)
    database.close()

    const backup = await run('backup', locationOf(dir))
    expect(backup.code).toBe(0)
    expect(backup.lines[0].migration).toBe(known.at(-2)!.tag)
    const target = newDir()
    expect((await run('restore', locationOf(target), [backup.lines[0].archive])).code).toBe(0)
    const t = await startApp({ dir: target })
    try {
      const applied = await t.deps.database.client.execute('SELECT count(*) AS n FROM __drizzle_migrations')
      expect(Number(applied.rows[0].n)).toBe(known.length)
      expect((await req(t.app, 'GET', '/health')).status).toBe(200)
    } finally {
      t.close()
    }
  })

  test('a backup stopped midway (the service shutting down) leaves nothing behind: no archive, no partial files', async () => {
    const dir = newDir()
    const t = await startApp({ dir })
    t.close()
    // enough incompressible objects that the archive is written for a while
    for (let i = 0; i < 300; i++) {
      mkdirSync(join(dir, 'files', '2024', '03'), { recursive: true })
      writeFileSync(join(dir, 'files', '2024', '03', `object-${i}.bin`), randomBytes(64 * 1024))
    }
    const backups = join(dir, 'backups')
    const stop = new AbortController()
    const backup = writeBackup({ databaseUrl: t.deps.config.databaseUrl, storage: t.deps.config.storage, dir: backups, now: new Date(), signal: stop.signal })
    backup.catch(() => {})
    let seen: string[] = []
    while (!seen.some((name) => name.endsWith('.tar.gz.partial'))) {
      await Bun.sleep(1)
      seen = existsSync(backups) ? readdirSync(backups) : []
    }
    // while it is written, the archive has only its partial name
    expect(seen.filter((name) => name.endsWith('.tar.gz'))).toEqual([])
    stop.abort(new Error('the service is stopping'))
    await expect(backup).rejects.toThrow('the service is stopping')
    expect(readdirSync(backups)).toEqual([])
  })
})
