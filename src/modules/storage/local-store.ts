import { createHash, randomUUID } from 'node:crypto'
import { access, constants, mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Message } from '../../lib/messages'
import { say } from './messages'
import { StorageUnavailableError, type ObjectInfo, type ObjectStore, type StoredObject } from './store'

/** Where unfinished writes live, inside the store so the final rename stays on one file system. */
const TMP = '.tmp'

/**
 * Keys come from the service, never from a request; this is defence in depth against a key that
 * would escape the folder or collide with the temp folder. Both backends use it, so a key that works on
 * one works on the other.
 */
export function assertSafeKey(key: string): void {
  const segments = key.split('/')
  const unsafe =
    key === '' ||
    /[\\\0]/.test(key) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..') ||
    segments[0] === TMP
  if (unsafe) throw new Error(`Unsafe object key ${JSON.stringify(key)}`)
}

/** Errors that say the disk, not the object, is the problem. */
const UNUSABLE: Record<string, () => Message> = {
  EACCES: say.permissionDenied,
  EPERM: say.permissionDenied,
  EROFS: say.readOnly,
  ENOSPC: say.diskFull,
  EDQUOT: say.diskQuota,
  EIO: say.diskIo,
  ENOTDIR: say.notAFolder,
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
}

function unavailable(error: unknown): unknown {
  const detail = Object.hasOwn(UNUSABLE, errorCode(error) ?? '') ? UNUSABLE[errorCode(error)!] : undefined
  return detail ? new StorageUnavailableError(detail()) : error
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.byteLength;) {
    const { bytesWritten } = await handle.write(chunk, offset)
    offset += bytesWritten
  }
}

export function createLocalStore(dir: string): ObjectStore {
  const pathOf = (key: string) => {
    assertSafeKey(key)
    return join(dir, ...key.split('/'))
  }

  /** A missing path under the folder means no object, unless the folder itself is not a folder. */
  async function assertFolder(): Promise<void> {
    try {
      if (!(await stat(dir)).isDirectory()) throw new StorageUnavailableError(say.notAFolder())
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw unavailable(error)
    }
  }

  async function* walk(folder: string, prefix: string): AsyncGenerator<ObjectInfo> {
    let entries
    try {
      entries = await readdir(folder, { withFileTypes: true })
    } catch (error) {
      // a sub-folder may vanish while we walk; a missing store is an empty one
      if (errorCode(error) === 'ENOENT') return
      throw unavailable(error)
    }
    for (const entry of entries) {
      if (prefix === '' && entry.name === TMP) continue
      const path = join(folder, entry.name)
      const key = prefix + entry.name
      if (entry.isDirectory()) {
        yield* walk(path, `${key}/`)
      } else if (entry.isFile()) {
        let info
        try {
          info = await stat(path)
        } catch (error) {
          if (errorCode(error) === 'ENOENT') continue
          throw unavailable(error)
        }
        yield { key, size: info.size, lastModified: info.mtime }
      }
    }
  }

  return {
    kind: 'file',

    async put(key, body): Promise<StoredObject> {
      const target = pathOf(key)
      const reader = body.getReader()
      let handle: FileHandle | undefined
      let temp: string | undefined
      let bodyFailed = false
      try {
        await mkdir(join(dir, TMP), { recursive: true })
        temp = join(dir, TMP, randomUUID())
        handle = await open(temp, 'wx')
        const hash = createHash('md5')
        let size = 0
        for (;;) {
          const chunk = await reader.read().catch((error: unknown) => {
            bodyFailed = true
            throw error
          })
          if (chunk.done) break
          hash.update(chunk.value)
          size += chunk.value.byteLength
          await writeAll(handle, chunk.value)
        }
        // flushed before the rename so a crash cannot leave a short file under the final name
        await handle.sync()
        await handle.close()
        handle = undefined
        await mkdir(dirname(target), { recursive: true })
        await rename(temp, target)
        temp = undefined
        return { size, etag: hash.digest('hex') }
      } catch (error) {
        if (bodyFailed) throw error
        await reader.cancel(error).catch(() => {})
        throw unavailable(error)
      } finally {
        await handle?.close().catch(() => {})
        if (temp) await rm(temp, { force: true }).catch(() => {})
      }
    },

    async get(key, range) {
      const path = pathOf(key)
      let info
      try {
        info = await stat(path)
      } catch (error) {
        const code = errorCode(error)
        if (code === 'ENOTDIR') await assertFolder()
        if (code === 'ENOENT' || code === 'ENOTDIR') return null
        throw unavailable(error)
      }
      if (!info.isFile()) return null
      const file = Bun.file(path)
      return (range ? file.slice(range.start, range.end + 1) : file).stream()
    },

    async remove(key) {
      try {
        await unlink(pathOf(key))
      } catch (error) {
        const code = errorCode(error)
        if (code === 'ENOTDIR') await assertFolder()
        if (code === 'ENOENT' || code === 'ENOTDIR') return
        throw unavailable(error)
      }
    },

    list: () => walk(dir, ''),

    async removeUnfinished(before) {
      let removed = 0
      let names: string[]
      try {
        names = await readdir(join(dir, TMP))
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return 0
        throw unavailable(error)
      }
      for (const name of names) {
        const path = join(dir, TMP, name)
        // a write in flight touches its file with every chunk; one untouched since `before` was abandoned
        const info = await stat(path).catch(() => null)
        if (info && info.mtime < before) {
          await rm(path, { force: true })
          removed++
        }
      }
      return removed
    },

    async probe() {
      try {
        await mkdir(dir, { recursive: true })
        await access(dir, constants.W_OK)
        return true
      } catch {
        return false
      }
    },
  }
}
