/**
 * Where a server's time goes under S1 or S2: the server process runs under `bun --cpu-prof`, is
 * warmed up as the suite warms its servers, then takes S1's burst (several times, undone in
 * between) or S2's reads at 64 connections. The result is the JS thread's busy time per request by
 * layer (Elysia, TypeBox, Drizzle, the database client, the libsql driver with SQLite, our code, …)
 * and the functions that take the most of it, counting only the samples of the measured load.
 *
 * Samples are of the server's JS thread only: HTTP parsing and writing in Bun's native code, and
 * the load driver sharing the machine, are not in them. Sampling slows the server a little, so
 * these runs give shares of time, not throughput.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { SAME_WORK_COMMAND, sameWorkEnv } from '../scenarios/same-work'
import * as scenario from '../scenarios/service'
import type { Person } from './people'
import { ROOT, startServer } from './server'

export const INTERVAL_US = 250
const CONNECTIONS = 64

export interface ProfileOptions {
  /** Workforce, or the same-work baseline B4/B5 */
  server: 'service' | 'baseline'
  load: 's1' | 's2'
  /** the service's environment on the seeded database (DATABASE_URL a file: URL) */
  env: Record<string, string> & { DATABASE_URL: string; JWT_SECRET: string }
  people: Person[]
  adminToken: string
  /** months with salaries, for S2 */
  months: string[]
  /** employees in each S1 burst; the rest warm up */
  burst: number
  /** S1 bursts, or seconds of S2 */
  rounds: number
  /** how many functions to keep, most time first */
  top?: number
}

export interface LayerTime {
  layer: string
  /** µs of the JS thread a request */
  us: number
  share: number
}

export interface ProfileResult {
  name: string
  requests: number
  seconds: number
  /** the JS thread's busy time a request, µs */
  busyUs: number
  /** of the measured stretch, how much the JS thread was busy */
  busyShare: number
  /** self time, builtins counted to their caller */
  layers: LayerTime[]
  /** inclusive time, the busiest first */
  functions: { name: string; us: number; share: number }[]
  /** the .cpuprofile, for Chrome DevTools */
  file: string
}

export async function profileServer(options: ProfileOptions): Promise<ProfileResult> {
  const profiles = join(ROOT, 'bench', '.data', 'profiles')
  mkdirSync(profiles, { recursive: true })
  const name = `${options.server}-${options.load}`
  const profiled = ['bun', '--cpu-prof', `--cpu-prof-dir=${profiles}`, `--cpu-prof-name=${name}.cpuprofile`, `--cpu-prof-interval=${INTERVAL_US}`]
  const client = createClient({ url: options.env.DATABASE_URL })
  const last = Number((await client.execute('SELECT coalesce(max(id), 0) AS id FROM attendance_records')).rows[0].id)
  const undo = () => client.execute({ sql: 'DELETE FROM attendance_records WHERE id > ?', args: [last] })
  const { people, burst } = options
  if (people.length <= burst) throw new Error(`${people.length} employees: fewer than a burst of ${burst} and some to warm up with`)

  /** Measured stretches, epoch ms, and the requests answered in them. */
  const windows: { from: number; to: number; requests: number }[] = []
  const server =
    options.server === 'service'
      ? await startServer({ env: options.env, command: [...profiled, 'src/index.ts'] })
      : await startServer({ env: sameWorkEnv(options.env), command: [...profiled, ...SAME_WORK_COMMAND.slice(1)] })
  try {
    const seeded = { base: server.base, people, adminToken: options.adminToken, dates: [], months: options.months }
    await scenario.employeeReads(seeded, 8, 2000)
    await scenario.morningBurst({ ...seeded, people: people.slice(burst) }, 8)
    const measure = async (run: () => Promise<{ requests: number }>) => {
      const from = Date.now()
      const result = await run()
      windows.push({ from, to: Date.now(), requests: result.requests })
    }
    if (options.load === 's1')
      for (let round = 0; round < options.rounds; round++) {
        await measure(() => scenario.morningBurst({ ...seeded, people: people.slice(0, burst) }, CONNECTIONS))
        await undo()
      }
    else {
      await scenario.morningBurst({ ...seeded, people: people.slice(0, burst) }, CONNECTIONS)
      await measure(() => scenario.employeeReads(seeded, CONNECTIONS, options.rounds * 1000))
    }
  } finally {
    await server.stop()
    await undo()
    client.close()
  }
  const file = join(profiles, `${name}.cpuprofile`)
  return { name, file, ...summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), windows, options.top ?? 40) }
}

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
export interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** [a part of the frame's URL, its layer], the first that matches wins */
export const LAYERS: [string, string][] = [
  ['/node_modules/elysia/', 'Elysia'],
  ['/node_modules/@sinclair/typebox', 'TypeBox'],
  ['/node_modules/drizzle-orm/', 'Drizzle'],
  ['/node_modules/@libsql/client/', '@libsql/client'],
  ['/node_modules/libsql/', 'libsql driver + SQLite'],
  ['/node_modules/jose/', 'jose'],
  ['/node_modules/@casl', 'CASL'],
  ['/src/db/embedded', 'src/db/embedded (the database client)'],
  ['/src/db/', 'src/db'],
  ['/src/http/', 'src/http'],
  ['/src/lib/local-time', 'src/lib/local-time'],
  ['/src/lib/', 'src/lib'],
  ['/src/modules/attendance/policy', 'policy'],
  ['/src/modules/attendance/records', 'policy'],
  ['/src/modules/', 'src/modules'],
  ['/src/', 'src'],
  ['/bench/baselines/', 'bench/baselines'],
  ['/node_modules/', 'other packages'],
]

const NO_CALLER = '(runtime, no JS caller: mostly garbage collection)'
/** with `weighByTime`, a gap longer than this is the thread waiting, not working */
const MAX_GAP_US = 100_000

/** A frame's layer; null for a builtin or native frame (counted to its caller's). */
function layerOf({ functionName, url }: CallFrame, layers: [string, string][]): string | null {
  if (functionName.startsWith('libsql_js::')) return 'libsql driver + SQLite'
  return layers.find(([part]) => url.includes(part))?.[1] ?? null
}

/**
 * A profile's samples inside `windows` (epoch ms): the JS thread's busy time per request, by layer
 * (self time, builtins counted to their caller) and by function (inclusive). A sample counts
 * `interval` µs, or with `weighByTime` the time to the next sample (at most MAX_GAP_US): the sampler
 * cannot stop the thread inside a long native call (a big JSON.stringify, a garbage collection,
 * SQLite stepping through rows), so under one long request the samples come far less often than
 * asked and a count would miss most of the time.
 */
export function summarizeProfile(
  profile: Profile,
  windows: { from: number; to: number; requests: number }[],
  top: number,
  layers: [string, string][] = LAYERS,
  interval = INTERVAL_US,
  weighByTime = false,
) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const measured: number[] = []
  const weights: number[] = []
  let at = profile.startTime
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]
    if (windows.some((window) => window.from * 1000 <= at && at <= window.to * 1000)) {
      measured.push(id)
      weights.push(weighByTime ? Math.min(MAX_GAP_US, profile.timeDeltas[i + 1] ?? interval) / interval : 1)
    }
  })
  const requests = windows.reduce((sum, window) => sum + window.requests, 0)
  const seconds = windows.reduce((sum, window) => sum + (window.to - window.from), 0) / 1000
  const busyUs = weights.reduce((sum, weight) => sum + weight, 0) * interval
  const perRequest = (samples: number) => ({ us: (samples * interval) / Math.max(1, requests), share: (samples * interval) / Math.max(1, busyUs) })
  const byLayer = new Map<string, number>()
  const byFunction = new Map<string, number>()
  for (const [i, id] of measured.entries()) {
    const weight = weights[i]
    let frame: number | undefined = id
    let layer: string | null = null
    while (layer === null && frame !== undefined) {
      layer = layerOf(nodes.get(frame)!.callFrame, layers)
      frame = parent.get(frame)
    }
    byLayer.set(layer ?? NO_CALLER, (byLayer.get(layer ?? NO_CALLER) ?? 0) + weight)
    const seen = new Set<string>()
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const { functionName, url, lineNumber } = nodes.get(up)!.callFrame
      const key = `${functionName || '(anonymous)'} ${url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '')}${url ? `:${lineNumber + 1}` : ''}`
      if (!seen.has(key)) byFunction.set(key, (byFunction.get(key) ?? 0) + weight)
      seen.add(key)
    }
  }
  const byTime = (a: [string, number], b: [string, number]) => b[1] - a[1]
  return {
    requests,
    seconds,
    busyUs: busyUs / Math.max(1, requests),
    busyShare: busyUs / 1e6 / Math.max(seconds, 1e-9),
    layers: [...byLayer].sort(byTime).map(([layer, samples]) => ({ layer, ...perRequest(samples) })),
    // the first is the root of every sample
    functions: [...byFunction].sort(byTime).slice(1, top + 1).map(([name, samples]) => ({ name, ...perRequest(samples) })),
  }
}
