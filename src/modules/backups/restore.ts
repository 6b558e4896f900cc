import { createHash, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { link, mkdir, open, rename, rm, rmdir, stat, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import Database from 'libsql'
import pkg from '../../../package.json'
import type { StorageConfig } from '../../config'
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../../lib/private-files'
import { assertSafeKey } from '../storage/local-store'
import { ArchiveReadError, readArchive, type EntryRecord } from './archive'
import { databaseFiles, embeddedPath, occupants } from './locations'
import {
  DATABASE_ENTRY,
  FILES_PREFIX,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_CHECKSUM_ENTRY,
  MANIFEST_ENTRY,
  manifestProblem,
  type Manifest,
} from './manifest'
import { knownMigrations } from './migrations'

/** A restore refused, said so that the operator knows what to do; nothing was written. */
export class RestoreError extends Error {
  override name = 'RestoreError'
}

export interface RestoreTarget {
  databaseUrl: string
  storage: StorageConfig
}

export interface RestoreResult {
  database: string
  storage: string | null
  manifest: Manifest
  /** what the operator should know: e.g. objects that stayed in an S3 bucket */
  notes: string[]
}

const MAX_MANIFEST_BYTES = 256 * 1024 * 1024

/**
 * Restores an archive of `writeBackup` into an empty data location: the database file of
 * `target.databaseUrl` and the folder of `target.storage`. Everything is unpacked beside the
 * targets first and checked (every entry against the manifest's SHA-256, the manifest against its
 * own, the migration level against this code's, `PRAGMA integrity_check` and the row counts of the
 * database); only then is it moved into place, the database last. A refusal leaves nothing behind.
 */
export async function restoreBackup(archive: string, target: RestoreTarget): Promise<RestoreResult> {
  const databasePath = embeddedPath(target.databaseUrl)
  if (databasePath === null)
    throw new RestoreError(
      `Cannot restore into ${target.databaseUrl}: a restore writes an embedded database file. Restore with DATABASE_URL=file:<path>, then load that file into the libSQL server with the server's own tools`,
    )
  if (!existsSync(archive) || !(await stat(archive)).isFile()) throw new RestoreError(`There is no archive at ${archive}`)
  const storageDir = target.storage.kind === 'file' ? target.storage.dir.replace(/\/+$/, '') : null
  await refuseOccupied(databasePath, storageDir)

  const refuse = (problem: string) => new RestoreError(`Cannot restore ${archive}: ${problem}; nothing was restored`)
  const damaged = (problem: string) => refuse(`the archive is damaged (${problem})`)
  const stamp = randomUUID().slice(0, 8)
  const stagedDatabase = `${databasePath}.restore-${stamp}`
  const stagedFiles = storageDir === null ? null : `${storageDir}.restore-${stamp}`
  let filesStaged = false
  let restored = false
  // folders made for the staging, removed again when the restore is refused
  const madeFolders: string[] = []
  for (const folder of [dirname(databasePath), ...(storageDir === null ? [] : [dirname(storageDir)])]) {
    const made = await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER })
    if (made) madeFolders.push(made)
  }

  try {
    const seen = new Map<string, EntryRecord>()
    const unpacker = createUnpacker()
    let manifestBytes: Uint8Array | null = null
    let manifestSum: string | null = null
    try {
      await readArchive(archive, async (header, bytes) => {
        const { name } = header
        if (header.type !== 'file') throw damaged(`${name} is not a plain file`)
        if (seen.has(name) || (name === MANIFEST_ENTRY && manifestBytes) || (name === MANIFEST_CHECKSUM_ENTRY && manifestSum))
          throw damaged(`${name} appears twice`)
        if (name === DATABASE_ENTRY) {
          seen.set(name, await unpacker.unpack(bytes, name, stagedDatabase, header.mtime))
        } else if (name.startsWith(FILES_PREFIX)) {
          const key = name.slice(FILES_PREFIX.length)
          try {
            assertSafeKey(key)
          } catch {
            throw damaged(`${JSON.stringify(name)} is not a name a backup writes`)
          }
          if (stagedFiles === null)
            throw refuse(
              `it holds file objects, but STORAGE_URL names an S3 bucket. Restore with STORAGE_URL=file:<an empty folder>, then copy that folder's objects into the bucket`,
            )
          filesStaged = true
          seen.set(name, await unpacker.unpack(bytes, name, join(stagedFiles, ...key.split('/')), header.mtime))
        } else if (name === MANIFEST_ENTRY) {
          manifestBytes = await collect(bytes, MAX_MANIFEST_BYTES, name)
        } else if (name === MANIFEST_CHECKSUM_ENTRY) {
          manifestSum = new TextDecoder().decode(await collect(bytes, 1024, name))
        } else {
          throw refuse(`it holds ${JSON.stringify(name)}: it is not a Workforce backup`)
        }
      })
    } catch (error) {
      await unpacker.flushed().catch(() => {})
      if (error instanceof ArchiveReadError) throw damaged(error.message)
      throw error
    }
    await unpacker.flushed()

    const manifest = checkManifest(manifestBytes, manifestSum, refuse, damaged)
    for (const entry of manifest.entries) {
      const found = seen.get(entry.name)
      if (!found) throw damaged(`${entry.name} is listed in its manifest but missing`)
      if (found.size !== entry.size || found.sha256 !== entry.sha256) throw damaged(`${entry.name} does not match its checksum in the manifest`)
      seen.delete(entry.name)
    }
    const extra = [...seen.keys()][0]
    if (extra !== undefined) throw damaged(`${extra} is not in its manifest`)
    checkDatabase(stagedDatabase, manifest, refuse)

    const notes: string[] = []
    if (!manifest.files.included && storageDir !== null)
      notes.push(
        `the archive holds no file objects (${manifest.files.note ?? 'they were kept elsewhere'}): point STORAGE_URL at that bucket, or the files' downloads will fail`,
      )

    // into place: the file objects first, the database last (its presence is what "restored" means)
    await refuseOccupied(databasePath, storageDir)
    if (filesStaged && stagedFiles !== null && storageDir !== null) {
      if (existsSync(storageDir)) await rmdir(storageDir)
      await rename(stagedFiles, storageDir)
    }
    await moveWithoutReplacing(stagedDatabase, databasePath)
    restored = true
    return { database: databasePath, storage: storageDir, manifest, notes }
  } finally {
    // files still being flushed and closed as the refusal came may hold a folder a moment longer (ENOTEMPTY): tried again
    const removal = { recursive: true, force: true, maxRetries: 5, retryDelay: 20 }
    for (const file of databaseFiles(stagedDatabase)) await rm(file, { force: true })
    if (stagedFiles !== null) await rm(stagedFiles, removal)
    if (!restored) for (const folder of madeFolders) await rm(folder, removal)
  }
}

/** A rename that fails rather than replace a file that appeared meanwhile (where the disk has hard links). */
async function moveWithoutReplacing(from: string, to: string): Promise<void> {
  try {
    await link(from, to)
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : ''
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(code)) throw error
    await rename(from, to)
    return
  }
  await unlink(from)
}

async function refuseOccupied(databasePath: string, storageDir: string | null): Promise<void> {
  const taken = await occupants(databasePath, storageDir)
  if (taken.length > 0)
    throw new RestoreError(
      `Refusing to restore: the data location is not empty (${taken.join(', ')}). A restore writes only where nothing is: move those away, or point DATABASE_URL and STORAGE_URL at an empty location`,
    )
}

/** How many unpacked files may wait for their fsync at once (fsyncs in parallel share the disk's flushes). */
const SYNCS_IN_FLIGHT = 32

/**
 * Writes entries' bytes to new files, hashing them and keeping their modification times. Each file
 * is flushed to the disk (fsync) while the next is unpacked; `flushed()` waits for them all.
 */
function createUnpacker() {
  const folders = new Set<string>()
  const syncing = new Set<Promise<void>>()

  return {
    async unpack(bytes: AsyncIterable<Uint8Array>, name: string, path: string, mtime: Date | undefined): Promise<EntryRecord> {
      const folder = dirname(path)
      if (!folders.has(folder)) {
        await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER })
        folders.add(folder)
      }
      const handle = await open(path, 'wx', PRIVATE_FILE)
      const hash = createHash('sha256')
      let size = 0
      try {
        for await (const chunk of bytes) {
          hash.update(chunk)
          size += chunk.byteLength
          for (let offset = 0; offset < chunk.byteLength; ) offset += (await handle.write(chunk, offset)).bytesWritten
        }
        if (mtime) await handle.utimes(mtime, mtime)
      } catch (error) {
        await handle.close()
        throw error
      }
      const sync = handle.sync().finally(() => handle.close())
      const tracked = sync.finally(() => syncing.delete(tracked))
      tracked.catch(() => {})
      syncing.add(tracked)
      if (syncing.size >= SYNCS_IN_FLIGHT) await Promise.race(syncing)
      return { name, size, sha256: hash.digest('hex') }
    },

    /** Every unpacked file is on the disk; rejects if one could not be flushed. */
    async flushed(): Promise<void> {
      await Promise.all(syncing)
    },
  }
}

async function collect(bytes: AsyncIterable<Uint8Array>, limit: number, name: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of bytes) {
    size += chunk.byteLength
    if (size > limit) throw new RestoreError(`${name} in the archive is larger than ${limit} bytes: it is not a Workforce backup`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

type Refusal = (problem: string) => RestoreError

function checkManifest(bytes: Uint8Array | null, sum: string | null, refuse: Refusal, damaged: Refusal): Manifest {
  if (bytes === null || sum === null)
    throw refuse(`it has no ${bytes === null ? MANIFEST_ENTRY : MANIFEST_CHECKSUM_ENTRY}: it is not a whole Workforce backup`)
  const expected = /^([0-9a-f]{64}) {2}manifest\.json\n?$/.exec(sum)?.[1]
  if (expected !== createHash('sha256').update(bytes).digest('hex')) throw damaged(`${MANIFEST_ENTRY} does not match ${MANIFEST_CHECKSUM_ENTRY}`)
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw damaged(`${MANIFEST_ENTRY} is not JSON`)
  }
  const head = parsed as Partial<Manifest> | null
  if (head?.format === FORMAT && typeof head.format_version === 'number' && head.format_version > FORMAT_VERSION)
    throw refuse(
      `it is in backup format ${head.format_version}, made by Workforce ${head.service_version}; this version (${pkg.version}) reads format ${FORMAT_VERSION}: restore it with Workforce ${head.service_version} or later`,
    )
  const problem = manifestProblem(parsed)
  if (problem) throw refuse(`its ${MANIFEST_ENTRY} is not a Workforce backup manifest (${problem})`)
  const manifest = parsed as Manifest

  const known = knownMigrations()
  const latest = known.at(-1)!
  const level = manifest.migration.tag ?? `of ${new Date(manifest.migration.created_at).toISOString()}`
  if (manifest.migration.created_at > latest.createdAt)
    throw refuse(
      `its database is at migration ${level}, newer than this version of Workforce (${pkg.version}, migration ${latest.tag}) knows; it was made by Workforce ${manifest.service_version}: restore it with that version or later`,
    )
  if (!known.some((migration) => migration.createdAt === manifest.migration.created_at))
    throw refuse(`its database is at migration ${level}, which this version of Workforce (${pkg.version}) does not know`)
  return manifest
}

/** The unpacked database passes `integrity_check` and holds what the manifest counted. */
function checkDatabase(path: string, manifest: Manifest, refuse: Refusal): void {
  let db: InstanceType<typeof Database>
  try {
    db = new Database(path)
    db.prepare('SELECT count(*) FROM sqlite_master').get()
  } catch (error) {
    throw refuse(`its database cannot be read (${error instanceof Error ? error.message : String(error)})`)
  }
  try {
    const problems = (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((row) => row.integrity_check)
    if (problems.join() !== 'ok') throw refuse(`its database fails PRAGMA integrity_check (${problems.slice(0, 3).join('; ')})`)
    for (const [table, rows] of Object.entries(manifest.database.rows)) {
      let count: number
      try {
        count = Number((db.prepare(`SELECT count(*) AS n FROM "${table.replaceAll('"', '""')}"`).get() as { n: number }).n)
      } catch {
        throw refuse(`its database has no table ${table}, which its manifest counts`)
      }
      if (count !== rows) throw refuse(`its database has ${count} rows in ${table} where its manifest counts ${rows}`)
    }
  } finally {
    db.close()
  }
}
