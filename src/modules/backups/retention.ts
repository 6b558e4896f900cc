import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Archives are named by the UTC time of their snapshot, so names sort in time order; only names of
 * this pattern are ever listed or pruned, whatever else the folder holds. A name ending in
 * `.partial` is a backup being written (or one that died): never taken for an archive.
 */
const ARCHIVE = /^workforce-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.tar\.gz$/
const PARTIAL = /^workforce-backup-\d{8}T\d{6}Z\.(tar\.gz|db)\.partial$/
/** A partial file this old belongs to no backup still running. */
const STALE_PARTIAL_MS = 24 * 3600 * 1000

export interface ArchiveInfo {
  name: string
  /** when its snapshot was taken */
  at: Date
}

export function archiveName(at: Date): string {
  const stamp = at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '')
  return `workforce-backup-${stamp}.tar.gz`
}

/** Where an archive is written until it is complete, and where its database snapshot waits meanwhile. */
export const partialNames = (name: string) => ({ archive: `${name}.partial`, snapshot: `${name.replace(/\.tar\.gz$/, '.db')}.partial` })

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return []
    throw error
  }
}

/** The archives in `dir`, oldest first. */
export async function listArchives(dir: string): Promise<ArchiveInfo[]> {
  const archives: ArchiveInfo[] = []
  for (const name of (await namesIn(dir)).sort()) {
    const match = ARCHIVE.exec(name)
    if (!match) continue
    const [, year, month, day, hour, minute, second] = match
    archives.push({ name, at: new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`) })
  }
  return archives
}

export async function newestArchive(dir: string): Promise<ArchiveInfo | null> {
  return (await listArchives(dir)).at(-1) ?? null
}

/** Removes the oldest archives beyond `keep`, and partial files a day old; returns the archives removed. */
export async function pruneArchives(dir: string, keep: number, now: Date): Promise<string[]> {
  const archives = await listArchives(dir)
  const removed = archives.slice(0, Math.max(0, archives.length - keep)).map((archive) => archive.name)
  for (const name of removed) await rm(join(dir, name), { force: true })
  for (const name of await namesIn(dir)) {
    if (!PARTIAL.test(name)) continue
    const info = await stat(join(dir, name)).catch(() => null)
    if (info && now.getTime() - info.mtime.getTime() > STALE_PARTIAL_MS) await rm(join(dir, name), { force: true })
  }
  return removed
}
