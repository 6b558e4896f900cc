// The container's HEALTHCHECK: asks the service on this host for /health where it listens (HOST, PORT);
// exits 0 when it answers 200, 1 otherwise.
import { loadConfig } from './config'

const TIMEOUT_MS = 4000

/** Where a probe on the same host reaches the service: a wildcard bind (0.0.0.0, ::) is reached on loopback. */
export function healthUrl(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  const target = bare === '0.0.0.0' || bare === '' ? '127.0.0.1' : bare === '::' ? '::1' : bare
  return `http://${target.includes(':') ? `[${target}]` : target}:${port}/health`
}

if (import.meta.main) {
  let url = ''
  try {
    const config = loadConfig()
    url = healthUrl(config.host, config.port)
    const reply = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) })
    if (!reply.ok) {
      console.error(`${url} answered ${reply.status}: ${await reply.text()}`)
      process.exit(1)
    }
  } catch (error) {
    console.error(`${url || 'health check'}: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
  process.exit(0)
}
