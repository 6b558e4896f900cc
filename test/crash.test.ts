import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { tempDir } from './helpers'
import { startS3 } from './s3-server'
import { call, signIn, startServer, type ServerProcess } from './server-process'

// Real server processes on files in a temp folder: killed with SIGKILL mid-load, restarted on the
// same files. Slow (several process starts), but runs with the rest.

const ADMIN_PASSWORD = 'admin-password-1'
const dirs: string[] = []
const servers: ServerProcess[] = []
afterAll(async () => {
  for (const server of servers) if (server.proc.exitCode === null && !server.proc.killed) await server.kill()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(env)
  servers.push(server)
  return server
}

function newDir(): string {
  const dir = tempDir('workforce-crash-')
  dirs.push(dir)
  return dir
}

/** Every file under `dir` (recursively, hidden folders included), as paths relative to it. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort()
  } catch {
    return []
  }
}

async function rows(client: Client, sql: string) {
  return (await client.execute(sql)).rows
}

/** Waits until `check` stops throwing, or throws its last error after `ms`. */
async function eventually(check: () => void | Promise<void>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await Bun.sleep(50)
    }
  }
}

describe('SIGKILL in the middle of a write load', () => {
  interface Write {
    kind: 'department' | 'employee' | 'rename'
    /** department or employee id, when known */
    id?: number
    name: string
    /** employee: its department; rename: the department's name before */
    ref?: number | string
    acked: boolean
  }

  test('three kills: every acknowledged write survives with its content and audit entry; the database checks ok', async () => {
    const started = performance.now()
    const dir = newDir()
    const dbUrl = `file:${join(dir, 'workforce.db')}`
    // no JWT_SECRET: the generated one is kept in the database and must survive the kills too; crash
    // leftovers of uploads are swept every second (CONTRACT §25), not only at start
    const filesDir = join(dir, 'files')
    const env = { DATABASE_URL: dbUrl, STORAGE_URL: `file:${filesDir}`, ADMIN_PASSWORD, STORAGE_SWEEP_SECONDS: '1' }
    let server = await start(env)
    const token = await signIn(server.base, 'admin', ADMIN_PASSWORD)
    const writes: Write[] = []
    const figures: { acked: number; inFlight: number; unknown: number }[] = []
    const restarted: ServerProcess[] = []

    for (let round = 1; round <= 3; round++) {
      const base = server.base
      let inFlight = 0
      let stop = false
      /** One write: recorded as acknowledged only on its success status; a broken connection leaves it unknown. */
      const send = async (write: Omit<Write, 'acked'>, method: string, path: string, body: unknown, ok: number) => {
        const entry: Write = { ...write, acked: false }
        writes.push(entry)
        inFlight++
        let reply
        try {
          reply = await call(base, method, path, { token, body })
        } catch (error) {
          // the connection broke: expected only once the kill is under way
          if (!stop) throw error
          return null
        } finally {
          inFlight--
        }
        if (reply.status !== ok) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`)
        entry.acked = true
        entry.id ??= reply.body.data.id
        return reply.body.data
      }
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const name = `r${round}-w${w}-${i}`
          const department = await send({ kind: 'department', name }, 'POST', '/api/v1/admin/departments', { name }, 201)
          if (!department) return
          if (i % 3 === 0) {
            const employee = `Emp ${name}`
            const body = { name: employee, employee_no: `E-${name}`, department_id: department.id }
            if (!(await send({ kind: 'employee', name: employee, ref: department.id }, 'POST', '/api/v1/admin/employees', body, 201)))
              return
          }
          if (i % 4 === 1) {
            const rename = { kind: 'rename' as const, id: department.id, name: `${name} renamed`, ref: name }
            if (!(await send(rename, 'PUT', `/api/v1/admin/departments/${department.id}`, { name: rename.name }, 200))) return
          }
          if (i % 5 === 2 && !(await upload(name))) return
        }
      }
      /** A small upload beside the writes: cut off by a kill, it may leave a temp file or an object without its row. */
      const upload = async (name: string) => {
        const form = new FormData()
        form.append('file', new File([`${name}\n`.repeat(20_000)], `${name}.txt`, { type: 'text/plain' }))
        try {
          const reply = await fetch(`${base}/api/v1/storage/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
          if (reply.status !== 201) throw new Error(`upload → ${reply.status} ${await reply.text()}`)
          return true
        } catch (error) {
          if (!stop) throw error
          return false
        }
      }
      const workers = Array.from({ length: 6 }, (_, w) => worker(w))
      await Bun.sleep(400 + Math.random() * 800)
      const atKill = inFlight
      stop = true
      server.proc.kill('SIGKILL')
      await Promise.all(workers)
      expect(await server.proc.exited).not.toBe(0)
      expect(atKill).toBeGreaterThan(0)
      const thisRound = writes.filter((write) => write.name.startsWith(`r${round}-`) || write.name.startsWith(`Emp r${round}-`))
      figures.push({ acked: thisRound.filter((w) => w.acked).length, inFlight: atKill, unknown: thisRound.filter((w) => !w.acked).length })

      server = await start(env)
      restarted.push(server)
      const health = await call(server.base, 'GET', '/health')
      expect(health.body.data).toMatchObject({ status: 'ok', database: 'up', storage: 'up' })
      await checkDatabase(dbUrl, writes)
      // the token signed before the first kill is still good: the generated key and the admin survived
      const after = await call(server.base, 'POST', '/api/v1/admin/departments', { token, body: { name: `after kill ${round}` } })
      expect(after.status).toBe(201)
      const ackedIds = writes.filter((w) => w.kind === 'department' && w.acked).map((w) => w.id!)
      expect(after.body.data.id).toBeGreaterThan(Math.max(...ackedIds))
    }

    // leftovers aged past the grace period are swept within the sweep's period, without a restart:
    // no temp file, and no object without its row
    const old = new Date(Date.now() - 16 * 60 * 1000)
    for (const path of filesUnder(filesDir)) utimesSync(join(filesDir, path), old, old)
    const client = createClient({ url: dbUrl })
    try {
      await eventually(async () => {
        const known = new Set((await rows(client, 'SELECT storage_key FROM files')).map((r) => String(r.storage_key)))
        expect(known.size).toBeGreaterThan(0)
        expect(filesUnder(filesDir).filter((path) => path.startsWith('.tmp/') || !known.has(path))).toEqual([])
      }, 10_000)
    } finally {
      client.close()
    }

    expect(await server.stop()).toBe(0)
    // no restarted server logged an error
    expect(restarted.flatMap((s) => s.errors)).toEqual([])
    await checkDatabase(dbUrl, writes)
    const acked = writes.filter((w) => w.acked).length
    expect(acked).toBeGreaterThan(30)
    console.log(
      `crash test: ${figures.map((f, i) => `kill ${i + 1}: ${f.acked} acknowledged, ${f.inFlight} in flight, ${f.unknown} unanswered`).join('; ')}; ` +
        `${acked} acknowledged writes checked; ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
  }, 90_000)

  /** Every acknowledged write is there as sent; an unknown one is there whole or not at all; rows and audit entries match one to one. */
  async function checkDatabase(url: string, writes: Write[]) {
    const client = createClient({ url })
    try {
      expect(await rows(client, 'PRAGMA integrity_check')).toEqual([expect.objectContaining({ integrity_check: 'ok' })])
      expect(await rows(client, 'PRAGMA foreign_key_check')).toEqual([])

      const departments = new Map((await rows(client, 'SELECT id, name FROM departments')).map((r) => [Number(r.id), String(r.name)]))
      const byName = new Map([...departments].map(([id, name]) => [name, id]))
      const employees = new Map(
        (await rows(client, 'SELECT name, employee_no, department_id FROM employees')).map((r) => [
          String(r.name),
          { employeeNo: String(r.employee_no), departmentId: Number(r.department_id) },
        ]),
      )
      const renames = new Map(writes.filter((w) => w.kind === 'rename').map((w) => [w.id!, w]))
      for (const write of writes) {
        if (write.kind === 'department') {
          const rename = write.id === undefined ? undefined : renames.get(write.id)
          const id = byName.get(write.name) ?? (rename ? byName.get(rename.name) : undefined)
          if (write.acked) expect({ name: write.name, id }).toEqual({ name: write.name, id: write.id })
          // a department whose create was cut off exists under its own name or not at all
          else if (id !== undefined) expect(departments.get(id)).toBe(write.name)
        } else if (write.kind === 'rename') {
          const name = departments.get(write.id!)
          if (write.acked) expect({ id: write.id, name }).toEqual({ id: write.id, name: write.name })
          else expect([write.name, write.ref]).toContain(name)
        } else {
          const employee = employees.get(write.name)
          const expected = { employeeNo: `E-${write.name.slice('Emp '.length)}`, departmentId: write.ref as number }
          if (write.acked) expect({ name: write.name, employee }).toEqual({ name: write.name, employee: expected })
          else if (employee) expect(employee).toEqual(expected)
        }
      }
      // each change and its audit entry are one transaction: neither is ever there without the other
      const audited = async (action: string) =>
        (await rows(client, `SELECT resource_id FROM audit_logs WHERE action = '${action}'`)).map((r) => Number(r.resource_id)).sort()
      const ids = async (table: string) => (await rows(client, `SELECT id FROM ${table}`)).map((r) => Number(r.id)).sort()
      expect(await audited('department.create')).toEqual(await ids('departments'))
      expect(await audited('employee.create')).toEqual(await ids('employees'))
      const renamedIds = (await rows(client, `SELECT id FROM departments WHERE name LIKE '% renamed'`)).map((r) => Number(r.id)).sort()
      expect(await audited('department.update')).toEqual(renamedIds)
    } finally {
      client.close()
    }
  }
})

// ---- uploads cut off ----------------------------------------------------------------------------

const MiB = 1024 * 1024
const BOUNDARY = '----workforce-cut-off'
const partHead = (field: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`
const TAIL = `\r\n--${BOUNDARY}--\r\n`
const TEXT_CHUNK = Buffer.alloc(64 * 1024, 'plain text line of an upload that will never finish\n')

/**
 * Opens a raw HTTP connection and sends a multipart upload that declares `declared` bytes: `prefix`,
 * then text in 64 KiB chunks at about 30 MB/s until `sendBytes` of text have gone, then hangs up
 * (or, with `after`, runs it while the request is stalled mid-stream and then hangs up).
 */
async function cutOffUpload(
  port: number,
  token: string,
  options: { path: string; prefix: string; declared: number; sendBytes: number; after?: () => Promise<void> },
) {
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(
    `POST ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${options.declared}\r\n\r\n${options.prefix}`,
  )
  let answer = ''
  socket.on('data', (data) => (answer += data.toString()))
  for (let sent = 0; sent < options.sendBytes; sent += TEXT_CHUNK.length) {
    if (!socket.write(TEXT_CHUNK)) await new Promise((resolve) => socket.once('drain', resolve))
    await Bun.sleep(2)
  }
  await options.after?.()
  socket.destroy()
  // the server had nothing to say before the body ended
  expect(answer).toBe('')
}

interface Backend {
  env: Record<string, string>
  /** every file the store keeps: whole objects, temp files, parts of unfinished multipart uploads */
  objects: () => string[]
  /** the keys of whole objects */
  keys: () => string[]
  stop(): Promise<void>
}

const backends: [string, () => Promise<Backend>][] = [
  [
    'local disk',
    async () => {
      const dir = newDir()
      const objects = () => filesUnder(join(dir, 'files'))
      return {
        env: { STORAGE_URL: `file:${join(dir, 'files')}` },
        objects,
        keys: () => objects().filter((path) => !path.startsWith('.tmp/')),
        stop: async () => {},
      }
    },
  ],
  [
    'S3',
    async () => {
      const s3 = await startS3()
      // s3rver keeps objects and unfinished multipart uploads as files under its folder
      const objects = () => filesUnder(s3.dir)
      return {
        env: s3.env,
        objects,
        keys: () => objects().filter((path) => path.endsWith('._S3rver_object')),
        stop: () => s3.stop(),
      }
    },
  ],
]

describe.each(backends)('an upload cut off mid-stream (%s)', (_, backend) => {
  test('a client that hangs up: no row, no object, no temp file or open multipart upload; the server keeps serving', async () => {
    const store = await backend()
    try {
      const dir = newDir()
      const dbUrl = `file:${join(dir, 'workforce.db')}`
      const server = await start({ DATABASE_URL: dbUrl, ADMIN_PASSWORD, ...store.env })
      const token = await signIn(server.base, 'admin', ADMIN_PASSWORD)
      const client = createClient({ url: dbUrl })
      const fileRows = async () => Number((await rows(client, 'SELECT count(*) AS n FROM files'))[0].n)
      try {
        // 1. one 20 MiB file, cut off after 10 MiB: by then the store is writing it (a temp file, or S3 parts)
        const head = partHead('file', 'big.txt')
        let midway: string[] = []
        await cutOffUpload(server.port, token, {
          path: '/api/v1/storage/upload',
          prefix: head,
          declared: head.length + 20 * MiB + TAIL.length,
          sendBytes: 10 * MiB,
          after: async () => {
            await eventually(() => expect(store.objects().length).toBeGreaterThan(0))
            midway = store.objects()
          },
        })
        expect(midway.length).toBeGreaterThan(0)
        await eventually(() => expect(store.objects()).toEqual([]))
        expect(await fileRows()).toBe(0)

        // 2. a batch whose first file arrived whole and whose second is cut off: the first is removed too
        const first = partHead('files', 'whole.txt') + 'a whole small file\n\r\n'
        const second = partHead('files', 'cut.txt')
        await cutOffUpload(server.port, token, {
          path: '/api/v1/storage/batch-upload',
          prefix: first + second,
          declared: first.length + second.length + 8 * MiB + TAIL.length,
          sendBytes: 6 * MiB,
        })
        await eventually(() => expect(store.objects()).toEqual([]))
        expect(await fileRows()).toBe(0)

        // 3. the server is fine: an upload that completes is stored, and only that one
        const form = new FormData()
        form.append('file', new File(['after the cut\n'], 'after.txt', { type: 'text/plain' }))
        const done = await fetch(`${server.base}/api/v1/storage/upload`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}` },
        })
        expect(done.status).toBe(201)
        const stored = ((await done.json()) as { data: { id: string; size: number } }).data
        expect(stored.size).toBe(14)
        expect(await fileRows()).toBe(1)
        expect(store.keys()).toHaveLength(1)
        expect(store.keys()[0]).toContain(stored.id)
        expect((await call(server.base, 'GET', '/health')).body.data).toMatchObject({ status: 'ok', database: 'up', storage: 'up' })
      } finally {
        client.close()
      }
      expect(await server.stop()).toBe(0)
    } finally {
      await store.stop()
    }
  }, 60_000)
})

describe('a server killed mid-upload (local disk)', () => {
  test('no row after the restart; the abandoned temp file is swept once it is older than the grace period, without a restart', async () => {
    const dir = newDir()
    const dbUrl = `file:${join(dir, 'workforce.db')}`
    const filesDir = join(dir, 'files')
    const env = { DATABASE_URL: dbUrl, STORAGE_URL: `file:${filesDir}`, ADMIN_PASSWORD }
    let server = await start(env)
    const token = await signIn(server.base, 'admin', ADMIN_PASSWORD)
    const head = partHead('file', 'doomed.txt')
    await cutOffUpload(server.port, token, {
      path: '/api/v1/storage/upload',
      prefix: head,
      declared: head.length + 20 * MiB + TAIL.length,
      sendBytes: 4 * MiB,
      after: async () => {
        // the temp file exists before its first bytes are written: wait for bytes, so the kill leaves a partial file
        await eventually(() => {
          const files = filesUnder(filesDir)
          expect(files).toHaveLength(1)
          expect(statSync(join(filesDir, files[0])).size).toBeGreaterThan(0)
        })
        await server.kill()
      },
    })
    const [temp] = filesUnder(filesDir)
    expect(temp).toStartWith('.tmp/')
    expect(statSync(join(filesDir, temp)).size).toBeGreaterThan(0)

    // restarted at once: the temp file could belong to another instance's upload in flight, so it stays
    server = await start(env)
    await Bun.sleep(300)
    expect(filesUnder(filesDir)).toEqual([temp])
    expect(await server.stop()).toBe(0)

    // once older than the grace period (its age is set back 16 minutes), the periodic sweep removes it without a restart
    server = await start({ ...env, STORAGE_SWEEP_SECONDS: '1' })
    const old = new Date(Date.now() - 16 * 60 * 1000)
    utimesSync(join(filesDir, temp), old, old)
    await eventually(() => expect(filesUnder(filesDir)).toEqual([]))
    expect(
      server.output.map((line) => JSON.parse(line)).find((line) => line.message === 'storage reconciled after an interrupted change'),
    ).toMatchObject({ objects_removed: 0, rows_removed: 0, unfinished_removed: 1 })
    const client = createClient({ url: dbUrl })
    try {
      expect(await rows(client, 'SELECT count(*) AS n FROM files')).toEqual([expect.objectContaining({ n: 0 })])
    } finally {
      client.close()
    }
    expect(await server.stop()).toBe(0)
  }, 60_000)
})
