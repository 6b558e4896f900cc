import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { open, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import pkg from '../../../package.json'
import type { StorageConfig } from '../../config'
import { holdsOnly, makePrivateFolder, tighten } from '../../lib/private-files'
import { createLocalStore } from '../storage/local-store'
import { createArchiveWriter, type EntryRecord } from './archive'
import { embeddedPath } from './locations'
import {
  checksumLine,
  DATABASE_ENTRY,
  FILES_PREFIX,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_CHECKSUM_ENTRY,
  MANIFEST_ENTRY,
  type Manifest,
} from './manifest'
import { knownMigrations } from './migrations'
import { archiveName, partialNames } from './retention'
import { takeSnapshot } from './snapshot'

/** A backup that cannot be made, said so that the operator knows what to do. */
export class BackupError extends Error {
  override name = 'BackupError'
}

export interface BackupOptions {
  databaseUrl: string
  storage: StorageConfig
  /** BACKUP_DIR */
  dir: string
  /** the snapshot's time: names the archive */
  now: Date
  /** stops a backup in progress (the service shutting down); nothing is left behind */
  signal?: AbortSignal
}

export interface BackupResult {
  path: string
  name: string
  /** the archive's size */
  bytes: number
  manifest: Manifest
}

export const REMOTE_DATABASE_RULE =
  'a backup copies the embedded database file; with a libSQL server (DATABASE_URL=libsql://, http(s)://, ws(s)://) use the server\'s own backups (see docs/operations.md, "Backups")'

/**
 * Writes one archive to `dir`: a consistent snapshot of the embedded database taken while writes go
 * on, the local file store's objects, and a manifest (migration level, row counts, a SHA-256 of
 * every entry). It is written under a `.partial` name, flushed and then renamed, so an archive under
 * its final name is always whole.
 *
 * The snapshot comes first, the objects after: an upload writes its object before its row and a
 * delete removes the object before the row, so every file row of the snapshot has its object in the
 * archive unless it was deleted meanwhile (start-up reconciliation then drops the row). Objects
 * uploaded meanwhile come along without a row, and the same reconciliation removes them.
 */
export async function writeBackup({ databaseUrl, storage, dir, now, signal }: BackupOptions): Promise<BackupResult> {
  const source = embeddedPath(databaseUrl)
  if (source === null) throw new BackupError(`Cannot back up ${databaseUrl}: ${REMOTE_DATABASE_RULE}`)
  if (!existsSync(source) || !(await stat(source)).isFile())
    throw new BackupError(`Nothing to back up: there is no database file at ${source} (DATABASE_URL)`)
  // archives hold the whole database: the folder and each archive are the service's user's only (a
  // folder that holds other things as well is someone else's to close)
  makePrivateFolder(dir)
  if (holdsOnly(dir, (entry) => entry.startsWith('workforce-backup-'))) tighten(dir)
  const name = archiveName(now)
  const path = join(dir, name)
  if (existsSync(path)) throw new BackupError(`${path} already exists: a backup was made at ${now.toISOString()} already`)
  const partial = partialNames(name)
  const archivePartial = join(dir, partial.archive)
  const snapshot = join(dir, partial.snapshot)
  await rm(snapshot, { force: true })

  const stopped = () => {
    if (signal?.aborted) throw signal.reason
  }
  let writer: ReturnType<typeof createArchiveWriter> | undefined
  try {
    const facts = await takeSnapshot(source, snapshot, signal)
    if (!facts.migration)
      throw new BackupError(`${source} is not a Workforce database: no migration was ever applied to it`)
    stopped()
    writer = createArchiveWriter(archivePartial)
    const entries: EntryRecord[] = [(await writer.addFile(DATABASE_ENTRY, snapshot))!]
    await rm(snapshot, { force: true })

    let files: Manifest['files']
    if (storage.kind === 'file') {
      let bytes = 0
      for await (const object of createLocalStore(storage.dir).list()) {
        stopped()
        const entry = await writer.addFile(FILES_PREFIX + object.key, join(storage.dir, ...object.key.split('/')))
        if (!entry) continue // deleted since it was listed
        entries.push(entry)
        bytes += entry.size
      }
      files = { store: 'file', included: true, objects: entries.length - 1, bytes }
    } else {
      files = {
        store: 's3',
        included: false,
        objects: 0,
        bytes: 0,
        note: `the objects stay in bucket ${storage.bucket}: the bucket's versioning or replication is their backup`,
      }
    }

    const manifest: Manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      service_version: pkg.version,
      created_at: now.toISOString(),
      migration: {
        tag: knownMigrations().find((migration) => migration.createdAt === facts.migration!.createdAt)?.tag ?? null,
        created_at: facts.migration.createdAt,
        applied: facts.migration.applied,
      },
      database: { entry: DATABASE_ENTRY, rows: facts.rows },
      files,
      entries,
    }
    const manifestBytes = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`)
    await writer.addBytes(MANIFEST_ENTRY, manifestBytes, now)
    const manifestSum = createHash('sha256').update(manifestBytes).digest('hex')
    await writer.addBytes(MANIFEST_CHECKSUM_ENTRY, new TextEncoder().encode(checksumLine(manifestSum, MANIFEST_ENTRY)), now)
    stopped()
    await writer.finish()
    await rename(archivePartial, path)
    await syncFolder(dir)
    return { path, name, bytes: (await stat(path)).size, manifest }
  } catch (error) {
    await writer?.abort()
    await rm(archivePartial, { force: true })
    throw error
  } finally {
    await rm(snapshot, { force: true })
  }
}

/** Makes the rename itself durable. */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
