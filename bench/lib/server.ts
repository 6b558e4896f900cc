/** Real server processes for the benchmarks, on 127.0.0.1, stopped by their process id. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '../../test/sqld'

export const ROOT = join(import.meta.dir, '..', '..')

export interface ServerProcess {
  base: string
  pids: number[]
  stop(): Promise<void>
}

// a port is asked of the system, not guessed: other servers share this machine
export { freePort }

/** Resolves when `stream` prints a line containing `text`; keeps draining it afterwards. */
async function waitForLine(stream: ReadableStream<Uint8Array>, text: string, timeoutMs = 30_000): Promise<void> {
  const decoder = new TextDecoder()
  let seen = ''
  let found = false
  const reader = stream.getReader()
  const timer = setTimeout(() => reader.cancel(), timeoutMs)
  while (!found) {
    const { done, value } = await reader.read()
    if (done) throw new Error(`the server exited or was silent for ${timeoutMs} ms before printing "${text}"`)
    seen += decoder.decode(value, { stream: true })
    found = seen.includes(text)
  }
  clearTimeout(timer)
  void (async () => {
    while (!(await reader.read()).done);
  })()
}

/**
 * Starts `processes` copies of the service on one port (REUSE_PORT=true),
 * one after another (each runs the start-up migrations and seeding), and returns how
 * to stop them.
 */
export async function startServer(options: {
  env: Record<string, string>
  processes?: number
  command?: string[]
}): Promise<ServerProcess> {
  const port = freePort()
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), REUSE_PORT: 'true', LOG_LEVEL: 'info', ...options.env }
  const children: Bun.Subprocess<'ignore', 'pipe', 'inherit'>[] = []
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((child) => child.exited))
  }
  try {
    for (let i = 0; i < (options.processes ?? 1); i++) {
      const child = Bun.spawn(options.command ?? ['bun', 'src/index.ts'], { env, cwd: ROOT, stdout: 'pipe', stderr: 'inherit' })
      children.push(child)
      await waitForLine(child.stdout, 'listening')
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { base: `http://127.0.0.1:${port}`, pids: children.map((child) => child.pid), stop }
}

/** Resident memory of a process, in bytes. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}
