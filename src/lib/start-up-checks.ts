import { randomUUID } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { Config } from '../config'

/** A reason the service cannot start that the operator must fix; its message says what and how. */
export class StartUpError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StartUpError'
  }
}

export interface ProcessIdentity {
  uid?: number
  gid?: number
  /** in a Docker or Podman container, where the fix is on the host's folder or the container's user */
  inContainer: boolean
}

/** Docker and Podman leave these marker files in every container they run. */
export const runsInContainer = () => existsSync('/.dockerenv') || existsSync('/run/.containerenv')

const thisProcess = (): ProcessIdentity => ({ uid: process.getuid?.(), gid: process.getgid?.(), inContainer: runsInContainer() })

interface Location {
  setting: 'DATABASE_URL' | 'STORAGE_URL'
  folder: string
  /** files inside the folder that must stay writable when they exist */
  files: string[]
}

function locations(config: Config): Location[] {
  const found: Location[] = []
  if (config.databaseUrl.startsWith('file:')) {
    const file = resolve(config.databaseUrl.slice('file:'.length).split('?')[0])
    found.push({ setting: 'DATABASE_URL', folder: dirname(file), files: ['', '-wal', '-shm'].map((suffix) => file + suffix) })
  }
  if (config.storage.kind === 'file') found.push({ setting: 'STORAGE_URL', folder: resolve(config.storage.dir), files: [] })
  return found
}

/**
 * Checks that the folders of a file database and a file store can be created and written by this
 * process, before anything opens them: a bind mount owned by root otherwise ends the start in a
 * libSQL stack trace that names neither the cause nor the fix.
 */
export function checkDataLocations(config: Config, identity: ProcessIdentity = thisProcess()): void {
  for (const { setting, folder, files } of locations(config)) {
    let target = folder
    try {
      mkdirSync(folder, { recursive: true })
      const probe = join(folder, `.write-check-${randomUUID()}`)
      writeFileSync(probe, '', { flag: 'wx' })
      rmSync(probe, { force: true })
      for (const file of files) {
        target = file
        if (existsSync(file)) accessSync(file, constants.R_OK | constants.W_OK)
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown'
      throw new StartUpError(dataLocationProblem(setting, target === folder ? nearestExisting(folder) : target, target === folder, code, identity))
    }
  }
}

/** The folder a failed mkdir or write is about: the configured one, or the deepest part of its path that exists. */
function nearestExisting(folder: string): string {
  let path = folder
  while (!existsSync(path) && dirname(path) !== path) path = dirname(path)
  return path
}

/** What is wrong with a data location and how to fix it, in one message. */
export function dataLocationProblem(setting: string, path: string, isFolder: boolean, code: string, identity: ProcessIdentity): string {
  const { uid, gid, inContainer } = identity
  const what = `${path} (${isFolder ? `the folder of ${setting}` : `a file of ${setting}`})`
  const user = uid === undefined ? 'this process' : `this process, which runs as uid ${uid}, gid ${gid}`
  const owner = uid === undefined ? '<uid>:<gid>' : `${uid}:${gid}`
  const folder = isFolder ? path : dirname(path)
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return inContainer
        ? `Cannot write to ${what}: permission denied to ${user}. ` +
            `Fix: give that folder to ${owner} (for a bind mount such as -v ./data:/data, on the host: sudo chown -R ${owner} ./data), ` +
            `or run the container as the folder's owner (docker run --user <uid>:<gid>).`
        : `Cannot write to ${what}: permission denied to ${user}. ` +
            `Fix: sudo chown -R ${owner} ${folder}, or run the service as the folder's owner.`
    case 'EROFS':
      return (
        `Cannot write to ${what}: the file system is read-only. ` +
        (inContainer ? 'Mount a writable volume there (docker run -v workforce-data:/data).' : `Point ${setting} at a writable folder.`)
      )
    case 'ENOTDIR':
    case 'EEXIST':
      return `Cannot create ${what}: part of that path is a file, not a folder. Point ${setting} at a folder, or move the file away.`
    case 'ENOSPC':
    case 'EDQUOT':
      return `Cannot write to ${what}: no space left on the device (${code}). Free some space or point ${setting} elsewhere.`
    default:
      return `Cannot write to ${what}: ${code}${uid === undefined ? '' : `, as uid ${uid}, gid ${gid}`}. Check that the folder can be created and written.`
  }
}

/**
 * Binds HOST:PORT once and lets go, before the database is opened, so that a port another process
 * serves (or an address or port this process may not use) stops the start with a message rather
 * than after migrations and a printed password. Listening with SO_REUSEPORT would let the kernel
 * split the requests between two services, perhaps on two databases: only REUSE_PORT=true (`shared`)
 * allows it.
 */
export function checkCanListen(host: string, port: number, shared: boolean): void {
  // beside a running instance, a probe sharing its port could take, then drop, connections meant for it
  if (shared) return
  let probe: ReturnType<typeof Bun.serve> | undefined
  try {
    probe = Bun.serve({ hostname: host, port, reusePort: false, fetch: () => new Response(null, { status: 503 }) })
  } catch (error) {
    throw listenProblem(host, port, shared, error) ?? error
  } finally {
    probe?.stop(true)
  }
}

/** Why HOST:PORT cannot be listened on, as a message naming the setting to change; null for an error that is not about that. */
export function listenProblem(host: string, port: number, shared: boolean, error: unknown): StartUpError | null {
  const where = `Port ${port} on ${host}`
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return new StartUpError(
        shared
          ? `${where} is already served by a process that does not share it: every instance sharing a port needs REUSE_PORT=true. ` +
              'Stop that process or choose another PORT.'
          : `${where} is already served by another process. Stop it or choose another PORT; ` +
              'to run several instances of Workforce on one port (all on the same DATABASE_URL and STORAGE_URL), start each with REUSE_PORT=true.',
      )
    case 'EACCES':
      return new StartUpError(
        `${where} needs a privilege this process does not have (ports below 1024). ` +
          'Choose a PORT of 1024 or above and publish it as you need (docker run -p 80:8080), or put a reverse proxy in front.',
      )
    case 'EADDRNOTAVAIL':
    case 'EINVAL':
      return new StartUpError(
        `HOST ${host} is not an address of this machine. Give one of its addresses, 0.0.0.0 (every IPv4 address) or :: (every address).`,
      )
    default:
      return null
  }
}
