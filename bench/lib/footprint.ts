/**
 * What a server process costs a small machine: how long from its start to its first 200 on
 * /health, and how much resident memory it holds once idle. Each start is a fresh process on the
 * seeded database; /health is asked every few milliseconds from the moment it is spawned.
 */
import { join } from 'node:path'
import { freePort, ROOT, rssOf } from './server'

export interface StartUp {
  /** ms from spawning the process to its first 200 on /health, each start */
  firstOkMs: number[]
  /** resident memory `idleMs` after that answer, bytes, each start */
  idleRss: number[]
}

const POLL_MS = 5
const GIVE_UP_MS = 30_000

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]

/** `starts` fresh starts of `command` (default: the service) with `env`, one after another. */
export async function startUps(options: { env: Record<string, string>; command?: string[]; starts: number; idleMs?: number }): Promise<StartUp> {
  const result: StartUp = { firstOkMs: [], idleRss: [] }
  for (let i = 0; i < options.starts; i++) {
    const port = freePort()
    const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), REUSE_PORT: 'true', LOG_LEVEL: 'info', ...options.env }
    const started = performance.now()
    const child = Bun.spawn(options.command ?? ['bun', join('src', 'index.ts')], { env, cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
    try {
      result.firstOkMs.push((await firstOk(`http://127.0.0.1:${port}/health`, child)) - started)
      await Bun.sleep(options.idleMs ?? 1000)
      result.idleRss.push(rssOf(child.pid))
    } finally {
      child.kill('SIGTERM')
      await child.exited
    }
  }
  return result
}

/** When `url` first answered 200 (performance.now()); throws when the process exits or is silent too long. */
async function firstOk(url: string, child: Bun.Subprocess): Promise<number> {
  const deadline = performance.now() + GIVE_UP_MS
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering ${url}`)
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      if (response.status === 200) return performance.now()
    } catch {
      // not listening yet
    }
    await Bun.sleep(POLL_MS)
  }
  throw new Error(`no 200 from ${url} within ${GIVE_UP_MS} ms`)
}
