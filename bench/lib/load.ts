/**
 * The load driver: a fixed number of connections, each sending its next request as soon
 * as the previous answer has been read (Bun's fetch keeps one socket per connection
 * alive). Reports throughput and latency percentiles.
 */

export interface LoadRequest {
  url: string
  init?: RequestInit
}

export interface LoadOptions {
  connections: number
  /** stop after this many requests (all of them answered) */
  requests?: number
  /** or after this long */
  durationMs?: number
  /** the i-th request of the run */
  next(i: number): LoadRequest
  /** statuses that count as success; the rest are counted as failures */
  ok?: (status: number) => boolean
}

export interface LoadResult {
  requests: number
  failures: number
  statuses: Record<string, number>
  seconds: number
  /** answered requests per second */
  throughput: number
  p50: number
  p99: number
  max: number
}

export function percentile(sorted: Float64Array | number[], fraction: number): number {
  if (sorted.length === 0) return 0
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)
  return sorted[Math.max(0, index)]
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { connections, requests = Infinity, durationMs = Infinity, next } = options
  if (requests === Infinity && durationMs === Infinity) throw new Error('runLoad needs requests or durationMs')
  const ok = options.ok ?? ((status: number) => status >= 200 && status < 300)
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  let issued = 0
  let failures = 0
  const started = performance.now()
  const deadline = started + durationMs

  const connection = async () => {
    while (issued < requests && performance.now() < deadline) {
      const { url, init } = next(issued++)
      const sent = performance.now()
      let status: number
      try {
        const response = await fetch(url, init)
        await response.arrayBuffer()
        status = response.status
      } catch {
        status = 0
      }
      latencies.push(performance.now() - sent)
      statuses[status] = (statuses[status] ?? 0) + 1
      if (!ok(status)) failures++
    }
  }
  await Promise.all(Array.from({ length: connections }, connection))
  const seconds = (performance.now() - started) / 1000
  const sorted = Float64Array.from(latencies).sort()
  return {
    requests: latencies.length,
    failures,
    statuses,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1] : 0,
  }
}

/** Calls `work` over and over in one loop (no HTTP) and reports it like a load run. */
export async function runLoop(count: number, work: (i: number) => Promise<unknown>): Promise<LoadResult> {
  const latencies = new Float64Array(count)
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const sent = performance.now()
    await work(i)
    latencies[i] = performance.now() - sent
  }
  const seconds = (performance.now() - started) / 1000
  latencies.sort()
  return {
    requests: count,
    failures: 0,
    statuses: {},
    seconds,
    throughput: count / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[count - 1] ?? 0,
  }
}
