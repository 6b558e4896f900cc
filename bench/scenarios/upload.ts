/**
 * S6: a large upload against a real server process on local disk: how much the server's
 * resident memory grows, and its throughput against Bun writing the same bytes to the
 * same disk. Then one megabyte over the limit, which must be refused (413) and leave
 * no object and no row.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { rssOf, startServer } from '../lib/server'

const MB = 1024 * 1024
const LINE = new TextEncoder().encode('workforce upload benchmark line of plain text, sixty-four bytes\n'.padEnd(64, '.'))
const BLOCK = (() => {
  const block = new Uint8Array(MB)
  for (let offset = 0; offset < MB; offset += LINE.length) block.set(LINE.subarray(0, Math.min(LINE.length, MB - offset)), offset)
  return block
})()

/** `megabytes` of text, produced a megabyte at a time: the sender never holds it all. */
function textStream(megabytes: number, prefix: Uint8Array, suffix: Uint8Array): ReadableStream<Uint8Array> {
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
  const encoder = new TextEncoder()
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  )
  return { body: textStream(megabytes, head, encoder.encode(`\r\n--${boundary}--\r\n`)), type: `multipart/form-data; boundary=${boundary}` }
}

function filesIn(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).length
}

export interface UploadFigures {
  megabytes: number
  status: number
  seconds: number
  rssBefore: number
  rssPeak: number
  rssGrowth: number
  /** Bun writing the same bytes and flushing them to the disk */
  diskSeconds: number
  /** the same without the flush (into the page cache) */
  cacheSeconds: number
  /** upload throughput / durable disk write throughput */
  ratio: number
  overLimitStatus: number
  objectsLeftByRefusal: number
  rows: number
}

export async function uploadScenario(megabytes: number): Promise<UploadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'workforce-s6-'))
  const env = {
    DATABASE_URL: `file:${join(dir, 'db.sqlite')}`,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    ADMIN_PASSWORD: 'bench-password-1',
    MAX_FILE_SIZE: String(megabytes * MB),
  }
  const server = await startServer({ env })
  const pid = server.pids[0]
  try {
    const login = await fetch(`${server.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'bench-password-1' }),
    })
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token

    const upload = async (size: number) => {
      const { body, type } = multipart(size)
      let peak = rssOf(pid)
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20)
      const started = performance.now()
      const response = await fetch(`${server.base}/api/v1/storage/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body,
        duplex: 'half',
      } as RequestInit)
      await response.arrayBuffer()
      const seconds = (performance.now() - started) / 1000
      clearInterval(sampler)
      return { status: response.status, seconds, peak }
    }

    // warm-up: the first upload loads code paths the measurement should not count
    await upload(1)
    Bun.gc(true)
    await Bun.sleep(200)
    const rssBefore = rssOf(pid)
    const big = await upload(megabytes)

    // the baseline: Bun writing the same bytes to the same disk, durably (flushed before it
    // counts as written, as the store flushes before it answers 201), and also without the flush
    const baselineFile = join(dir, 'baseline.bin')
    const diskWrite = async (flush: boolean) => {
      const started = performance.now()
      const writer = Bun.file(baselineFile).writer()
      for (let i = 0; i < megabytes; i++) writer.write(BLOCK)
      await writer.end()
      if (flush) {
        const fd = openSync(baselineFile, 'r+')
        fsyncSync(fd)
        closeSync(fd)
      }
      const seconds = (performance.now() - started) / 1000
      rmSync(baselineFile)
      return seconds
    }
    const diskSeconds = await diskWrite(true)
    const cacheSeconds = await diskWrite(false)

    const objectsBefore = filesIn(join(dir, 'files'))
    const overLimit = await upload(megabytes + 1)
    const objectsAfter = filesIn(join(dir, 'files'))
    const db = createClient({ url: env.DATABASE_URL })
    const rows = Number((await db.execute('SELECT count(*) AS n FROM files')).rows[0].n)
    db.close()
    return {
      megabytes,
      status: big.status,
      seconds: big.seconds,
      rssBefore,
      rssPeak: big.peak,
      rssGrowth: big.peak - rssBefore,
      diskSeconds,
      cacheSeconds,
      ratio: diskSeconds / big.seconds,
      overLimitStatus: overLimit.status,
      objectsLeftByRefusal: objectsAfter - objectsBefore,
      rows,
    }
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
