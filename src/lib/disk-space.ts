import { existsSync, statfsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

/** Bytes an unprivileged writer may still use on the filesystem holding `path` (its nearest existing folder); null when unknown. */
export function freeBytes(path: string): number | null {
  let at = resolve(path)
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at)
  try {
    const stats = statfsSync(at)
    return stats.bavail * stats.bsize
  } catch {
    return null
  }
}

/** The folders of this machine the service writes to, from its settings: the embedded database's, the local file store's, the backups'. */
export function localDataFolders(settings: { databaseUrl: string; storage: { kind: string; dir?: string }; backup: { dir: string } }): string[] {
  const folders: string[] = []
  if (settings.databaseUrl.startsWith('file:')) folders.push(dirname(settings.databaseUrl.slice('file:'.length).split('?')[0]))
  if (settings.storage.kind === 'file' && settings.storage.dir) folders.push(settings.storage.dir)
  folders.push(settings.backup.dir)
  return [...new Set(folders.map((folder) => resolve(folder)))]
}
