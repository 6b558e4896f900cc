import { readdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'

/** The file behind an embedded database's URL; null for a libSQL server. */
export function embeddedPath(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith('file:')) return null
  return databaseUrl.slice('file:'.length).split('?')[0]
}

/** The files SQLite keeps for a database at `path`. */
export const databaseFiles = (path: string) => ['', '-wal', '-shm', '-journal'].map((suffix) => path + suffix)

/** What already occupies a data location: a restore goes only where nothing is. */
export async function occupants(databasePath: string, storageDir: string | null): Promise<string[]> {
  const found = databaseFiles(databasePath).filter((file) => existsSync(file))
  if (storageDir !== null && existsSync(storageDir)) {
    let names: string[]
    try {
      names = await readdir(storageDir)
    } catch {
      names = ['(not a readable folder)']
    }
    if (names.length > 0) found.push(`${storageDir} (${names.length} ${names.length === 1 ? 'entry' : 'entries'})`)
  }
  return found
}
