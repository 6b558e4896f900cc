import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync, type Stats } from 'node:fs'

/*
 * Files that hold personal data (the database and its -wal/-shm, backups, restored data) are readable
 * by the service's user only. New ones are created so (an explicit mode, not only the process's
 * umask: tests and tools open databases in-process); ones left looser by an older version are
 * tightened at start. SQLite gives a database's -wal and -shm the mode of the database file itself.
 */

export const PRIVATE_FILE = 0o600
export const PRIVATE_FOLDER = 0o700

/** The umask the entry points set first: whatever else the process writes (uploads, temporary files) is private too. */
export const PRIVATE_UMASK = 0o077

const modeOf = (stats: Stats) => stats.mode & 0o777
const octal = (mode: number) => `0${mode.toString(8)}`

/** Creates `folder` and its missing parents as private folders (an existing one is left as it is). */
export function makePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER })
}

/** Creates `file` empty and private when it does not exist (an empty file is an empty SQLite database). */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE))
}

/**
 * Whether every entry of `folder` is one `ours` accepts: a folder that holds anything else (the
 * project's own folder, /var/lib) is shared, and is never closed to others.
 */
export function holdsOnly(folder: string, ours: (name: string) => boolean): boolean {
  try {
    return readdirSync(folder).every(ours)
  } catch {
    return false
  }
}

/**
 * Takes away every permission of group and others from `path` when it has any; returns what changed
 * (`path 0644 → 0600`), or null when nothing did. Only this user's own files and folders are touched,
 * and never a folder with the sticky bit (/tmp). Not on systems without POSIX modes (Windows).
 */
export function tighten(path: string): string | null {
  const uid = process.getuid?.()
  if (uid === undefined) return null
  let stats: Stats
  try {
    stats = statSync(path)
  } catch {
    return null
  }
  const folder = stats.isDirectory()
  const wanted = folder ? PRIVATE_FOLDER : PRIVATE_FILE
  const mode = modeOf(stats)
  if ((mode & ~wanted) === 0 || stats.uid !== uid) return null
  if (folder && (stats.mode & 0o1000) !== 0) return null
  const tightened = mode & wanted
  chmodSync(path, tightened)
  return `${path} ${octal(mode)} → ${octal(tightened)}`
}

/** `tighten` for each path, with what changed. */
export function tightenAll(paths: readonly string[]): string[] {
  return paths.map(tighten).filter((change) => change !== null)
}
