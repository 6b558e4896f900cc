// The container's HEALTHCHECK: asks the service on this host for /health where it listens (HOST, PORT; https with TLS_CERT_FILE);
// exits 0 when it answers 200, or 503 with status "degraded" (said on stdout), 1 otherwise.
import { loadConfig } from './config'

const TIMEOUT_MS = 4000

/** Where a probe on the same host reaches the service: a wildcard bind (0.0.0.0, ::) is reached on loopback; https when it serves TLS. */
export function healthUrl(host: string, port: number, tls = false): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  const target = bare === '0.0.0.0' || bare === '' ? '127.0.0.1' : bare === '::' ? '::1' : bare
  return `${tls ? 'https' : 'http'}://${target.includes(':') ? `[${target}]` : target}:${port}/health`
}

/**
 * Whether the container is alive: `ok`, or `degraded` (a full disk, writes that fail or stall, a file
 * store away). A restart cures none of those and would cut off the reads that still work, so only a
 * service that does not answer, or whose database does not (`down`), is unhealthy. Monitors that
 * watch /health itself still get its 503.
 */
export function alive(status: number, body: unknown): boolean {
  if (status === 200) return true
  return status === 503 && (body as { data?: { status?: unknown } } | null)?.data?.status === 'degraded'
}

if (import.meta.main) {
  let url = ''
  try {
    const config = loadConfig()
    url = healthUrl(config.host, config.port, config.tls !== undefined)
    // The certificate is not checked: it names the host people open, not the loopback address asked here, it may
    // be self-signed or from an internal CA, and an expired one is cured by a renewal, not by a restart.
    const reply = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), tls: { rejectUnauthorized: false } })
    const text = await reply.text()
    let body: unknown = null
    try {
      body = JSON.parse(text)
    } catch {
      // not the service's answer: judged by its status alone
    }
    if (!alive(reply.status, body)) {
      console.error(`${url} answered ${reply.status}: ${text}`)
      process.exit(1)
    }
    if (reply.status !== 200) console.log(`${url} answered ${reply.status}, degraded: ${(body as { message?: unknown }).message}`)
  } catch (error) {
    console.error(`${url || 'health check'}: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
  process.exit(0)
}
