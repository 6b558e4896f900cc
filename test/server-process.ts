import { join } from 'node:path'

const INDEX = join(import.meta.dir, '..', 'src', 'index.ts')

let consoleBuilt: Promise<void> | undefined
/** Server processes serve the web console as a real start does: built once per test run when missing or stale. */
export function ensureConsoleBuilt(): Promise<void> {
  consoleBuilt ??= (async () => {
    const build = Bun.spawn(['bun', join(import.meta.dir, '..', 'src', 'console', 'build.ts'), '--if-stale'], { stdout: 'ignore', stderr: 'pipe' })
    if ((await build.exited) !== 0) throw new Error(`the console did not build: ${await new Response(build.stderr).text()}`)
  })()
  return consoleBuilt
}
const START_TIMEOUT_MS = 20_000

export interface ServerProcess {
  proc: ReturnType<typeof Bun.spawn>
  pid: number
  port: number
  /** http://127.0.0.1:<port>, or https:// when it serves TLS */
  base: string
  /** every line the server printed on stdout so far (JSON log lines) */
  output: string[]
  /** every line it printed on stderr so far (error log lines, and anything Bun itself reports) */
  errors: string[]
  /** SIGTERM, then waits for the exit code */
  stop(): Promise<number>
  /** SIGKILL, then waits for the exit */
  kill(): Promise<number>
}

/**
 * Starts `bun src/index.ts` bound to 127.0.0.1 on a free port (PORT=0) and waits until it logs
 * where it listens (so LOG_LEVEL is always info: the line it waits for is an info line). `env`
 * adds to a minimal environment (PATH and HOME only), so nothing of the caller's leaks in.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  await ensureConsoleBuilt()
  const proc = Bun.spawn(['bun', INDEX], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', ...env, LOG_LEVEL: 'info' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const output: string[] = []
  const errors: string[] = []
  const stdout = proc.stdout as ReadableStream<Uint8Array>
  const reader = stdout.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const deadline = Date.now() + START_TIMEOUT_MS
  const timer = setTimeout(() => proc.kill('SIGKILL'), START_TIMEOUT_MS)
  try {
    while (Date.now() < deadline) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      output.push(...lines)
      const listening = lines.map(parseLine).find((line) => line?.message === 'Workforce is listening')
      if (listening) {
        // keep reading so the pipe never fills and blocks the server
        void (async () => {
          for (;;) {
            const next = await reader.read().catch(() => ({ done: true as const, value: undefined }))
            if (next.done) return
            buffer += decoder.decode(next.value, { stream: true })
            const more = buffer.split('\n')
            buffer = more.pop() ?? ''
            output.push(...more)
          }
        })()
        void (async () => {
          const errorDecoder = new TextDecoder()
          let rest = ''
          for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
            const more = (rest + errorDecoder.decode(chunk, { stream: true })).split('\n')
            rest = more.pop() ?? ''
            errors.push(...more)
          }
        })().catch(() => {})
        const url = new URL(String(listening.url))
        const port = Number(url.port)
        return {
          proc,
          pid: proc.pid,
          port,
          base: `${url.protocol}//127.0.0.1:${port}`,
          output,
          errors,
          async stop() {
            proc.kill('SIGTERM')
            return proc.exited
          },
          async kill() {
            proc.kill('SIGKILL')
            return proc.exited
          },
        }
      }
    }
  } finally {
    clearTimeout(timer)
  }
  proc.kill('SIGKILL')
  await proc.exited
  throw new Error(`the server did not start: ${output.join('\n')} ${await new Response(proc.stderr as ReadableStream<Uint8Array>).text()}`)
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line)
  } catch {
    return null
  }
}

/** JSON request against a running server; the body is parsed when it is JSON. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; signal?: AbortSignal } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
    // a server over https serves a certificate its test made, for a name that is not 127.0.0.1
    ...(base.startsWith('https:') ? { tls: { rejectUnauthorized: false } } : {}),
  })
  const text = await response.text()
  try {
    return { status: response.status, body: JSON.parse(text) }
  } catch {
    return { status: response.status, body: text }
  }
}

/** Signs in against a running server and returns the access token. */
export async function signIn(base: string, username: string, password: string): Promise<string> {
  const reply = await call(base, 'POST', '/api/v1/auth/login', { body: { username, password } })
  if (reply.status !== 200) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(reply.body)}`)
  return reply.body.data.access_token
}
