import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import { extract as tarExtract, pack as tarPack, type Header } from 'tar-stream'
import { PRIVATE_FILE } from '../../lib/private-files'

/*
 * A backup archive is a gzipped tar (readable with `tar -xzf`), written and read as streams with
 * tar-stream: a database of gigabytes never sits in memory. Bun.Archive builds and reads archives
 * in memory only, so it does not suffice here.
 */

/** One entry as written: what the manifest's checksums list. */
export interface EntryRecord {
  name: string
  size: number
  sha256: string
}

const CHUNK = 1024 * 1024
const GZIP_LEVEL = 6

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
}

/** Waits until `stream` takes more, or fails with the archive's own failure. */
function drained(stream: { once(event: 'drain', listener: () => void): unknown }, failure: Promise<never>): Promise<void> {
  return Promise.race([new Promise<void>((resolve) => stream.once('drain', resolve)), failure])
}

/** Writes a .tar.gz at `path` (which must not exist), entry by entry, hashing each as it goes. */
export function createArchiveWriter(path: string) {
  const pack = tarPack()
  const written = pipeline(pack, createGzip({ level: GZIP_LEVEL }), createWriteStream(path, { flags: 'wx', mode: PRIVATE_FILE }))
  // an entry waiting for room must hear of a failed disk, not wait for ever
  const failure = written.then(() => new Promise<never>(() => {}))
  failure.catch(() => {})

  type EntryHeader = Pick<Header, 'name' | 'size' | 'mtime'>

  async function entry(header: EntryHeader, fill: (write: (chunk: Uint8Array) => Promise<void>) => Promise<void>): Promise<EntryRecord> {
    const hash = createHash('sha256')
    let settle!: (error?: Error | null) => void
    const finished = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve())
    })
    const sink = pack.entry({ ...header, type: 'file', mode: 0o644 }, (error) => settle(error))
    await fill(async (chunk) => {
      hash.update(chunk)
      if (!sink.write(chunk)) await drained(sink, failure)
    })
    sink.end(undefined)
    await Promise.race([finished, failure])
    return { name: header.name, size: header.size, sha256: hash.digest('hex') }
  }

  return {
    /** Adds the file at `source` as `name`; null when it no longer exists (an object deleted meanwhile). */
    async addFile(name: string, source: string): Promise<EntryRecord | null> {
      let handle
      try {
        handle = await open(source, 'r')
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return null
        throw error
      }
      try {
        // the open file is read to its end even if it is unlinked meanwhile
        const { size, mtime } = await handle.stat()
        return await entry({ name, size, mtime }, async (write) => {
          for (let remaining = size; remaining > 0; ) {
            const chunk = Buffer.allocUnsafe(Math.min(CHUNK, remaining))
            const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
            if (bytesRead === 0) throw new Error(`${source} became shorter while it was archived`)
            remaining -= bytesRead
            await write(chunk.subarray(0, bytesRead))
          }
        })
      } finally {
        await handle.close()
      }
    },

    addBytes(name: string, bytes: Uint8Array, mtime: Date): Promise<EntryRecord> {
      return entry({ name, size: bytes.byteLength, mtime }, (write) => write(bytes))
    },

    /** Ends the archive and flushes it to the disk. */
    async finish(): Promise<void> {
      pack.finalize()
      await written
      const handle = await open(path, 'r')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
    },

    /** Stops writing; the caller removes the file. */
    async abort(): Promise<void> {
      pack.destroy()
      await written.catch(() => {})
    },
  }
}

export type ArchiveWriter = ReturnType<typeof createArchiveWriter>

/** Why an archive could not be read: damaged or not an archive at all. */
export class ArchiveReadError extends Error {}

/**
 * Reads the .tar.gz at `path` entry by entry; `onEntry` must consume each entry's bytes. A damaged
 * archive (a bad gzip checksum, a cut-off end, a broken tar header) rejects with an ArchiveReadError.
 */
export async function readArchive(
  path: string,
  onEntry: (header: Header, bytes: AsyncIterable<Uint8Array>) => Promise<void>,
): Promise<void> {
  // which failed first decides what is reported: the archive's bytes (or the disk), or the reader
  let sequence = 0
  type Failure = { error: unknown; at: number }
  let broken = null as Failure | null
  let refused = null as Failure | null
  const source = createReadStream(path, { highWaterMark: CHUNK })
  const gunzip = createGunzip()
  const extract = tarExtract()
  const onBroken = (error: unknown) => {
    broken ??= { error, at: ++sequence }
  }
  source.on('error', onBroken)
  gunzip.on('error', onBroken)
  extract.on('error', onBroken)
  const feeding = pipeline(source, gunzip, extract)
  feeding.catch(() => {})
  try {
    for await (const entry of extract) {
      try {
        await onEntry(entry.header, entry as AsyncIterable<Uint8Array>)
      } catch (error) {
        refused ??= { error, at: ++sequence }
        throw error
      }
    }
    await feeding
  } catch (error) {
    // the reader fails too when the stream it reads breaks, with the same error or a later one
    const readerFirst = refused && (!broken || (refused.at < broken.at && refused.error !== broken.error))
    if (readerFirst) throw refused!.error
    const first = broken?.error ?? error
    if (/^E[A-Z]+$/.test(errorCode(first) ?? '')) throw first
    throw new ArchiveReadError(first instanceof Error ? first.message : String(first))
  }
}
