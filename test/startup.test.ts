import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { prepare } from '../src/bootstrap'
import { users } from '../src/db/schema'
import { fixedClock } from '../src/lib/clock'
import type { Logger } from '../src/lib/logger'
import { DEFAULT_MIN_FREE_BYTES, healthyData, NOW, req, tempDir, testConfig } from './helpers'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const newDir = () => {
  const dir = tempDir()
  dirs.push(dir)
  return dir
}

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = []
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push({ level, message, fields })
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
  return { logger, lines }
}

describe('start-up in one process', () => {
  test('two instances preparing one new database at once both come up and share one admin and one key', async () => {
    const dir = newDir()
    const config = testConfig(dir, { ADMIN_PASSWORD: '', JWT_SECRET: '' })
    const a = recordingLogger()
    const b = recordingLogger()
    const [depsA, depsB] = await Promise.all([
      prepare(config, { clock: fixedClock(NOW), logger: a.logger }),
      prepare(config, { clock: fixedClock(NOW), logger: b.logger }),
    ])
    const generated = [...a.lines, ...b.lines].filter((line) => line.fields?.password)
    expect(generated).toHaveLength(1)
    const password = generated[0].fields!.password as string
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/)

    const appA = createApp(depsA)
    const appB = createApp(depsB)
    const signIn = await req(appA, 'POST', '/api/v1/auth/login', { body: { username: 'admin', password } })
    expect(signIn.status).toBe(200)
    // the signing key was generated once and kept in the database, so B accepts A's token
    expect((await req(appB, 'GET', '/api/v1/auth/me', { token: signIn.body.data.access_token })).status).toBe(200)
    expect(await depsA.database.db.select({ username: users.username }).from(users)).toEqual([{ username: 'admin' }])
    depsA.database.close()
    depsB.database.close()

    // a restart on the same database makes no new admin and prints no password
    const again = recordingLogger()
    const deps = await prepare(config, { clock: fixedClock(NOW), logger: again.logger })
    expect(again.lines.filter((line) => line.fields?.password)).toEqual([])
    expect(await deps.database.db.select({ id: users.id }).from(users)).toEqual([{ id: 1 }])
    deps.database.close()
  }, 30_000)

  test('ADMIN_USERNAME and ADMIN_PASSWORD name the first administrator', async () => {
    const dir = newDir()
    const { logger, lines } = recordingLogger()
    const deps = await prepare(testConfig(dir, { ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'boss-password' }), {
      clock: fixedClock(NOW),
      logger,
    })
    expect(lines.filter((line) => line.fields?.password)).toEqual([])
    const reply = await req(createApp(deps), 'POST', '/api/v1/auth/login', { body: { username: 'boss', password: 'boss-password' } })
    expect(reply.body.data.user).toEqual({ id: 1, username: 'boss', name: 'Administrator', roles: ['admin'] })
    deps.database.close()
  })
})

interface Server {
  proc: ReturnType<typeof Bun.spawn>
  port: number
  output: string[]
}

/** Starts `bun src/index.ts` and waits until it says where it listens. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const proc = Bun.spawn(['bun', join(import.meta.dir, '..', 'src', 'index.ts')], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const output: string[] = []
  const reader = proc.stdout.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += decoder.decode(value)
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    output.push(...lines)
    const listening = lines.map((line) => JSON.parse(line)).find((line) => line.message === 'Workforce is listening')
    if (listening) {
      void (async () => {
        for (;;) {
          const next = await reader.read()
          if (next.done) return
          output.push(...decoder.decode(next.value).split('\n').filter(Boolean))
        }
      })()
      return { proc, port: Number(new URL(listening.url).port), output }
    }
  }
  proc.kill()
  throw new Error(`server did not start: ${output.join('\n')} ${await new Response(proc.stderr).text()}`)
}

const listeningLine = (server: Server) =>
  server.output.map((line) => JSON.parse(line)).find((line) => line.message === 'Workforce is listening')

describe('start-up as real processes', () => {
  test('two processes started together on one new database file both serve; SIGTERM drains and exits 0', async () => {
    const dir = newDir()
    const env = { DATABASE_URL: `file:${join(dir, 'shared.db')}`, STORAGE_URL: `file:${join(dir, 'files')}`, LOG_LEVEL: 'info' }
    const [one, two] = await Promise.all([startServer(env), startServer(env)])
    try {
      const printed = [...one.output, ...two.output].map((line) => JSON.parse(line)).filter((line) => line.password)
      expect(printed).toHaveLength(1)
      const password = printed[0].password
      // without PUBLIC_URL, the docs link names the port actually bound (PORT=0 picks one)
      for (const server of [one, two])
        expect(listeningLine(server)).toMatchObject({ url: `http://127.0.0.1:${server.port}`, docs: `http://localhost:${server.port}/swagger` })

      for (const server of [one, two]) {
        const health = await fetch(`http://127.0.0.1:${server.port}/health`)
        expect(health.status).toBe(200)
        expect(((await health.json()) as { data: unknown }).data).toEqual(healthyData({}, { disk_min_free_bytes: DEFAULT_MIN_FREE_BYTES }))
        const signIn = await fetch(`http://127.0.0.1:${server.port}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password }),
        })
        expect(signIn.status).toBe(200)
      }

      // a sign-in (a slow argon2 check) is in flight when SIGTERM arrives: it still completes
      const inFlight = fetch(`http://127.0.0.1:${one.port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      })
      await Bun.sleep(30)
      one.proc.kill('SIGTERM')
      expect((await inFlight).status).toBe(200)
      expect(await one.proc.exited).toBe(0)
      two.proc.kill('SIGTERM')
      expect(await two.proc.exited).toBe(0)
    } finally {
      one.proc.kill()
      two.proc.kill()
    }
  }, 60_000)

  test('the start-up line links the docs page under PUBLIC_URL, whatever the bind address and port', async () => {
    const dir = newDir()
    const server = await startServer({
      DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
      STORAGE_URL: `file:${join(dir, 'files')}`,
      ADMIN_PASSWORD: 'admin-password-1',
      PUBLIC_URL: 'https://hr.example.com/workforce/',
      LOG_LEVEL: 'info',
    })
    try {
      expect(listeningLine(server)).toMatchObject({ url: `http://127.0.0.1:${server.port}`, docs: 'https://hr.example.com/workforce/swagger' })
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
  }, 30_000)

  test('a bad setting stops the start with a message naming it', async () => {
    const proc = Bun.spawn(['bun', join(import.meta.dir, '..', 'src', 'index.ts')], {
      env: { PATH: process.env.PATH ?? '', PORT: 'eighty' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(await proc.exited).toBe(1)
    expect(await new Response(proc.stderr).text()).toBe('Invalid setting PORT: expected a whole number, got "eighty"\n')
  }, 30_000)
})

