/**
 * A 100 MB upload against a real server process: how much its resident memory grows,
 * and its throughput against writing the same bytes to the same disk with Bun alone.
 * Then a 101 MB upload, which must be refused (413) and leave no object and no row.
 *
 *   bun run bench:upload            (STORAGE: local disk in a temp folder)
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'

const MB = 1024 * 1024
const CHUNK = new TextEncoder().encode('workforce upload benchmark line of plain text, sixty-four bytes\n'.padEnd(64, '.'))
const BLOCK = (() => {
  const block = new Uint8Array(MB)
  for (let offset = 0; offset < MB; offset += CHUNK.length) block.set(CHUNK.subarray(0, Math.min(CHUNK.length, MB - offset)), offset)
  return block
})()

/** `megabytes` of text, produced a megabyte at a time: the sender never holds it all. */
function textStream(megabytes: number, prefix = new Uint8Array(), suffix = new Uint8Array()): ReadableStream<Uint8Array> {
  let sent = -1
  return new ReadableStream({
    pull(controller) {
      if (sent === -1) controller.enqueue(prefix)
      else if (sent < megabytes) controller.enqueue(BLOCK)
      else {
        controller.enqueue(suffix)
        controller.close()
      }
      sent++
    },
  })
}

function multipart(megabytes: number): { body: ReadableStream<Uint8Array>; type: string } {
  const boundary = `----workforce${crypto.randomUUID()}`
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`
  const tail = `\r\n--${boundary}--\r\n`
  const encoder = new TextEncoder()
  return { body: textStream(megabytes, encoder.encode(head), encoder.encode(tail)), type: `multipart/form-data; boundary=${boundary}` }
}

function rssOf(pid: number): number {
  const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

function filesIn(dir: string): number {
  let count = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) count++
  return count
}

const dir = mkdtempSync(join(tmpdir(), 'workforce-bench-'))
const port = 20000 + Math.floor(Math.random() * 20000)
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
  STORAGE_URL: `file:${join(dir, 'files')}`,
  ADMIN_PASSWORD: 'bench-password-1',
  LOG_LEVEL: 'warn',
}
const server = Bun.spawn(['bun', 'src/index.ts'], { env, stdout: 'ignore', stderr: 'inherit', cwd: join(import.meta.dir, '..') })
const base = `http://127.0.0.1:${port}`

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break
    } catch {
      if (i > 100) throw new Error('the server did not start')
    }
    await Bun.sleep(100)
  }
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'bench-password-1' }),
  })
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token

  const upload = async (megabytes: number) => {
    const { body, type } = multipart(megabytes)
    let peak = rssOf(server.pid)
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 20)
    const started = performance.now()
    const response = await fetch(`${base}/api/v1/storage/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body,
      duplex: 'half',
    })
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    return { status: response.status, seconds, peak, body: await response.text() }
  }

  // warm up: the first request loads code paths the measurement should not count
  await upload(1)
  Bun.gc(true)
  await Bun.sleep(200)
  const before = rssOf(server.pid)
  const big = await upload(100)
  const growth = big.peak - before

  const baselineFile = join(dir, 'baseline.bin')
  const baselineStart = performance.now()
  const writer = Bun.file(baselineFile).writer()
  for (let i = 0; i < 100; i++) writer.write(BLOCK)
  await writer.end()
  const baselineSeconds = (performance.now() - baselineStart) / 1000
  rmSync(baselineFile)

  const objectsBefore = filesIn(join(dir, 'files'))
  const tooBig = await upload(101)
  const objectsAfter = filesIn(join(dir, 'files'))
  const db = createClient({ url: env.DATABASE_URL })
  const rows = Number((await db.execute('SELECT count(*) AS n FROM files')).rows[0].n)
  db.close()

  const mbps = (seconds: number) => (100 / seconds).toFixed(1)
  console.log(`100 MB upload: HTTP ${big.status} in ${big.seconds.toFixed(2)} s (${mbps(big.seconds)} MB/s)`)
  console.log(`  server resident memory: ${(before / MB).toFixed(1)} MB before, peak ${(big.peak / MB).toFixed(1)} MB, growth ${(growth / MB).toFixed(1)} MB (target < 64 MB: ${growth < 64 * MB ? 'holds' : 'MISSES'})`)
  console.log(`  Bun writing the same 100 MB to the same disk: ${baselineSeconds.toFixed(2)} s (${mbps(baselineSeconds)} MB/s)`)
  console.log(`  upload throughput / disk baseline: ${((baselineSeconds / big.seconds) * 100).toFixed(0)}%`)
  console.log(`101 MB upload: HTTP ${tooBig.status}; objects ${objectsBefore} → ${objectsAfter}; rows in files: ${rows} (2 expected: warm-up and 100 MB)`)
  if (big.status !== 201 || growth >= 64 * MB || tooBig.status !== 413 || objectsAfter !== objectsBefore || rows !== 2) process.exitCode = 1
} finally {
  server.kill()
  await server.exited
  rmSync(dir, { recursive: true, force: true })
}
