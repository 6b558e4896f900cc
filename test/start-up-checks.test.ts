import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runsInContainer } from '../src/lib/start-up-checks'
import { tempDir } from './helpers'
import { startServer, type ServerProcess } from './server-process'

const SRC = join(import.meta.dir, '..', 'src')
const NOBODY = 65534

const dirs: string[] = []
const servers: ServerProcess[] = []
afterAll(async () => {
  for (const server of servers) if (server.proc.exitCode === null) await server.kill()
  // an empty read-only folder is removed with its parent: that needs only the parent writable
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const newDir = () => {
  const dir = tempDir()
  // traversable by another user, for the run as uid 65534 below
  chmodSync(dir, 0o755)
  dirs.push(dir)
  return dir
}
const started = async (env: Record<string, string>) => {
  const server = await startServer(env)
  servers.push(server)
  return server
}

interface Exit {
  code: number
  stdout: string
  stderr: string
}

/** Runs `bun <script>` with a minimal environment until it exits (killed after 20 s). */
async function runToExit(script: string, env: Record<string, string>, as?: { uid: number; gid: number }): Promise<Exit> {
  const proc = Bun.spawn(['bun', join(SRC, script)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    ...as,
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000)
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ])
  clearTimeout(timer)
  return { code, stdout, stderr }
}

const isRoot = process.getuid?.() === 0
/** As root, folder permissions stop no write: the refused writer is then another user (setuid in the spawn). */
const canSwitchUser = isRoot && Bun.spawnSync(['true'], { uid: NOBODY, gid: NOBODY }).exitCode === 0

describe('a data location the service cannot write stops the start with one message', () => {
  test.skipIf(isRoot && !canSwitchUser)(
    'a database folder owned by someone else: the path, the uid and gid, the fix; nothing opened, no stack trace',
    async () => {
      const dir = newDir()
      const data = join(dir, 'data')
      mkdirSync(data)
      // root owns the folder and the service runs as nobody, or the folder is made read-only for this user
      const as = isRoot ? { uid: NOBODY, gid: NOBODY } : undefined
      if (!isRoot) chmodSync(data, 0o555)
      const uid = as?.uid ?? process.getuid!()
      const gid = as?.gid ?? process.getgid!()

      const exit = await runToExit(
        'index.ts',
        { DATABASE_URL: `file:${join(data, 'workforce.db')}`, STORAGE_URL: `file:${join(data, 'files')}` },
        as,
      )
      expect(exit).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `Cannot write to ${data} (the folder of DATABASE_URL): permission denied to this process, which runs as uid ${uid}, gid ${gid}. ` +
          // these tests may themselves run in a container, where the fix names the host folder or the container's user
          (runsInContainer()
            ? `Fix: give that folder to ${uid}:${gid} (for a bind mount such as -v ./data:/data, on the host: sudo chown -R ${uid}:${gid} ./data), ` +
              "or run the container as the folder's owner (docker run --user <uid>:<gid>).\n"
            : `Fix: sudo chown -R ${uid}:${gid} ${data}, or run the service as the folder's owner.\n`),
      })
      expect(readdirSync(data)).toEqual([])
    },
    30_000,
  )

  test('a file store folder that cannot be created (a file is in the way): named with its setting; the database is not created', async () => {
    const dir = newDir()
    writeFileSync(join(dir, 'files'), 'not a folder')
    const exit = await runToExit('index.ts', {
      DATABASE_URL: `file:${join(dir, 'db', 'workforce.db')}`,
      STORAGE_URL: `file:${join(dir, 'files', 'store')}`,
    })
    expect(exit).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Cannot create ${join(dir, 'files')} (the folder of STORAGE_URL): part of that path is a file, not a folder. ` +
        'Point STORAGE_URL at a folder, or move the file away.\n',
    })
    // the database folder passed its check (and keeps no probe file), but no database was opened in it
    expect(readdirSync(join(dir, 'db'))).toEqual([])
  }, 30_000)
})

describe('one port, one service, unless instances are meant to share it (REUSE_PORT)', () => {
  const files = (dir: string, name: string) => ({
    DATABASE_URL: `file:${join(dir, `${name}.db`)}`,
    STORAGE_URL: `file:${join(dir, `${name}-files`)}`,
    ADMIN_PASSWORD: 'admin-password-1',
  })

  test('a second service on a served port exits 1 with a message naming the port and the setting, before touching its data', async () => {
    const dir = newDir()
    const first = await started(files(dir, 'first'))
    const second = await runToExit('index.ts', { ...files(dir, 'second'), PORT: String(first.port) })
    expect(second).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Port ${first.port} on 127.0.0.1 is already served by another process. Stop it or choose another PORT; ` +
        'to run several instances of Workforce on one port (all on the same DATABASE_URL and STORAGE_URL), start each with REUSE_PORT=true.\n',
    })
    // nothing of the second's was created: no database, no file folder
    expect(readdirSync(dir).filter((name) => name.startsWith('second'))).toEqual([])
    expect((await fetch(`${first.base}/health`)).status).toBe(200)
    expect(await first.stop()).toBe(0)
  }, 60_000)

  test('with REUSE_PORT=true on both, two instances serve one port: either alone keeps answering', async () => {
    const dir = newDir()
    const env = { ...files(dir, 'shared'), REUSE_PORT: 'true' }
    const first = await started(env)
    const second = await started({ ...env, PORT: String(first.port) })
    expect(second.port).toBe(first.port)
    const healthOnNewConnections = () =>
      Promise.all(Array.from({ length: 20 }, () => fetch(`${first.base}/health`, { keepalive: false }).then((reply) => reply.status)))
    expect(await healthOnNewConnections()).toEqual(Array(20).fill(200))
    // the second really listens on that port: with the first gone, it answers alone
    expect(await first.stop()).toBe(0)
    expect(await healthOnNewConnections()).toEqual(Array(20).fill(200))
    expect(await second.stop()).toBe(0)
  }, 60_000)

  test('REUSE_PORT=true beside a service that does not share its port: exits 1 naming the port and the setting', async () => {
    const dir = newDir()
    const first = await started(files(dir, 'first'))
    const second = await runToExit('index.ts', { ...files(dir, 'first'), PORT: String(first.port), REUSE_PORT: 'true' })
    expect(second.code).toBe(1)
    expect(second.stderr).toBe(
      `Port ${first.port} on 127.0.0.1 is already served by a process that does not share it: every instance sharing a port needs REUSE_PORT=true. ` +
        'Stop that process or choose another PORT.\n',
    )
    expect((await fetch(`${first.base}/health`)).status).toBe(200)
    expect(await first.stop()).toBe(0)
  }, 60_000)
})

describe('the container health check follows HOST and PORT', () => {
  test('exits 0 where the service listens, 1 with the reason where it does not', async () => {
    const dir = newDir()
    const server = await started({ DATABASE_URL: `file:${join(dir, 'workforce.db')}`, STORAGE_URL: `file:${join(dir, 'files')}` })
    const port = String(server.port)
    expect(await runToExit('health-check.ts', { HOST: '127.0.0.1', PORT: port })).toEqual({ code: 0, stdout: '', stderr: '' })
    // a wildcard bind is probed on loopback
    expect(await runToExit('health-check.ts', { HOST: '0.0.0.0', PORT: port })).toEqual({ code: 0, stdout: '', stderr: '' })
    // another address than the one served: the probe goes there, and fails
    const elsewhere = await runToExit('health-check.ts', { HOST: '::1', PORT: port })
    expect(elsewhere.code).toBe(1)
    expect(elsewhere.stderr).toStartWith(`http://[::1]:${port}/health: `)
    expect(await server.stop()).toBe(0)
    const stopped = await runToExit('health-check.ts', { HOST: '127.0.0.1', PORT: port })
    expect(stopped.code).toBe(1)
    expect(stopped.stderr).toStartWith(`http://127.0.0.1:${port}/health: `)
  }, 60_000)
})
