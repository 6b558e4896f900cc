/**
 * Where a server's time goes under S1 or S2: the server process runs under `bun --cpu-prof`,
 * is warmed up as in bench/run.ts, then takes S1's burst (several times, undone in between) or
 * S2's reads at 64 connections. Prints the JS thread's busy time per request by layer (Elysia,
 * TypeBox, Drizzle, @libsql/client, the libsql driver with SQLite, our code, …) and the
 * functions that take the most of it, counting only the samples of the measured load.
 *
 *   bun run bench -- --medium                                  once, for the database
 *   bun bench/profile.ts --server service --load s1            Workforce under S1
 *   bun bench/profile.ts --server baseline --load s2           B5 (bench/baselines/) under S2
 *
 * The profile is kept in bench/.data/profiles/ for Chrome DevTools. Samples are of the server's
 * JS thread only: HTTP parsing and writing in Bun's native code, and the load driver sharing the
 * machine, are not in them.
 */
import { mkdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { ArgsError, parseFlags, text, usage, wholeNumber, type FlagSpec } from './lib/args'
import { adminToken, signedInEmployees } from './lib/people'
import { ROOT, startServer } from './lib/server'
import { SAME_WORK_COMMAND, sameWorkEnv } from './scenarios/same-work'
import * as scenario from './scenarios/service'

const FLAGS: Record<string, FlagSpec> = {
  server: { help: 'service (Workforce) or baseline (B4/B5)' },
  load: { help: 's1 (clock-in bursts) or s2 (employee reads)' },
  data: { help: 'folder of a seeded run (default bench/.data/medium, from `bun run bench -- --medium`)' },
  burst: { help: 'employees in each S1 burst (default 2000); the rest warm up' },
  rounds: { help: 'S1 bursts, or seconds of S2 (default 4 and 8)' },
  top: { help: 'functions listed (default 40)' },
  help: { switch: true, help: 'this text' },
}
const SECRET = 'bench-jwt-secret-that-is-at-least-32-bytes'
const INTERVAL_US = 250

const flags = (() => {
  try {
    return parseFlags(process.argv.slice(2), FLAGS)
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error
    console.error(`${error.message}\n${usage('bun bench/profile.ts', FLAGS)}`)
    process.exit(2)
  }
})()
const which = text(flags, 'server') ?? 'service'
const load = text(flags, 'load') ?? 's1'
if (flags.has('help') || !['service', 'baseline'].includes(which) || !['s1', 's2'].includes(load)) {
  console.log(usage('bun bench/profile.ts', FLAGS))
  process.exit(flags.has('help') ? 0 : 2)
}
const dataDir = text(flags, 'data') ?? join(ROOT, 'bench', '.data', 'medium')
const dbUrl = `file:${join(dataDir, 'workforce.db')}`
if (!existsSync(join(dataDir, 'workforce.db'))) {
  console.error(`no seeded database in ${dataDir}: run \`bun run bench -- --medium\` first`)
  process.exit(2)
}
const env = { DATABASE_URL: dbUrl, STORAGE_URL: `file:${join(dataDir, 'files')}`, JWT_SECRET: SECRET, ADMIN_PASSWORD: 'bench-password-1' }
const burstSize = wholeNumber(flags, 'burst', 1, 1_000_000) ?? 2000
const rounds = wholeNumber(flags, 'rounds', 1, 100) ?? (load === 's1' ? 4 : 8)

const profiles = join(ROOT, 'bench', '.data', 'profiles')
mkdirSync(profiles, { recursive: true })
const name = `${which}-${load}`
const profiled = ['bun', '--cpu-prof', `--cpu-prof-dir=${profiles}`, `--cpu-prof-name=${name}.cpuprofile`, `--cpu-prof-interval=${INTERVAL_US}`]

const client = createClient({ url: dbUrl })
const last = Number((await client.execute('SELECT coalesce(max(id), 0) AS id FROM attendance_records')).rows[0].id)
const months = (await client.execute('SELECT DISTINCT month FROM salaries ORDER BY month')).rows.map((row) => String(row.month))
const undo = () => client.execute({ sql: 'DELETE FROM attendance_records WHERE id > ?', args: [last] })
const people = await signedInEmployees(dbUrl, SECRET, 1_000_000)
if (people.length <= burstSize) throw new Error(`${people.length} employees: fewer than --burst ${burstSize} and some to warm up with`)

/** Measured stretches, epoch ms, and the requests answered in them. */
const windows: { from: number; to: number; requests: number }[] = []
const server =
  which === 'service'
    ? await startServer({ env, command: [...profiled, 'src/index.ts'] })
    : await startServer({ env: sameWorkEnv(env), command: [...profiled, ...SAME_WORK_COMMAND.slice(1)] })
try {
  const seeded = { base: server.base, people, adminToken: await adminToken(dbUrl, SECRET), dates: [], months }
  await scenario.employeeReads(seeded, 8, 2000)
  await scenario.morningBurst({ ...seeded, people: people.slice(burstSize) }, 8)
  const measure = async (run: () => Promise<{ requests: number; throughput: number; failures: number }>) => {
    const from = Date.now()
    const result = await run()
    windows.push({ from, to: Date.now(), requests: result.requests })
    console.log(`${load.toUpperCase()}: ${Math.round(result.throughput).toLocaleString('en')}/s, ${result.failures} failed`)
  }
  if (load === 's1')
    for (let round = 0; round < rounds; round++) {
      await measure(() => scenario.morningBurst({ ...seeded, people: people.slice(0, burstSize) }, 64))
      await undo()
    }
  else {
    await scenario.morningBurst({ ...seeded, people: people.slice(0, burstSize) }, 64)
    await measure(() => scenario.employeeReads(seeded, 64, rounds * 1000))
  }
} finally {
  await server.stop()
  await undo()
  client.close()
}
interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

const LAYERS: [string, string][] = [
  ['/node_modules/elysia/', 'Elysia'],
  ['/node_modules/@sinclair/typebox', 'TypeBox'],
  ['/node_modules/drizzle-orm/', 'Drizzle'],
  ['/node_modules/@libsql/client/', '@libsql/client'],
  ['/node_modules/libsql/', 'libsql driver + SQLite'],
  ['/node_modules/jose/', 'jose'],
  ['/node_modules/@casl', 'CASL'],
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

/** A frame's layer; null for a builtin or native frame (counted to its caller's). */
function layerOf({ functionName, url }: CallFrame): string | null {
  if (functionName.startsWith('libsql_js::')) return 'libsql driver + SQLite'
  return LAYERS.find(([part]) => url.includes(part))?.[1] ?? null
}

function report(profile: Profile): void {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const measured: number[] = []
  let at = profile.startTime
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]
    if (windows.some((window) => window.from * 1000 <= at && at <= window.to * 1000)) measured.push(id)
  })
  const requests = windows.reduce((sum, window) => sum + window.requests, 0)
  const seconds = windows.reduce((sum, window) => sum + (window.to - window.from), 0) / 1000
  const busyMs = (measured.length * INTERVAL_US) / 1000
  const perRequest = (samples: number) => `${((samples * INTERVAL_US) / requests).toFixed(0).padStart(5)} µs ${((100 * samples) / measured.length).toFixed(1).padStart(5)}%`
  console.log(
    `\n${name}: ${requests.toLocaleString('en')} requests in ${seconds.toFixed(2)} s; the JS thread busy ${busyMs.toFixed(0)} ms (${((busyMs / seconds) * 0.1).toFixed(0)}% of the time), ${((busyMs * 1000) / requests).toFixed(0)} µs a request`,
  )
  const byLayer = new Map<string, number>()
  const byFunction = new Map<string, number>()
  for (const id of measured) {
    let frame: number | undefined = id
    let layer: string | null = null
    while (layer === null && frame !== undefined) {
      layer = layerOf(nodes.get(frame)!.callFrame)
      frame = parent.get(frame)
    }
    byLayer.set(layer ?? '(runtime, no JS caller)', (byLayer.get(layer ?? '(runtime, no JS caller)') ?? 0) + 1)
    const seen = new Set<string>()
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const { functionName, url, lineNumber } = nodes.get(up)!.callFrame
      const key = `${functionName || '(anonymous)'} ${url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '')}${url ? `:${lineNumber + 1}` : ''}`
      if (!seen.has(key)) byFunction.set(key, (byFunction.get(key) ?? 0) + 1)
      seen.add(key)
    }
  }
  console.log('\nself time by layer (builtins counted to their caller), a request:')
  for (const [layer, samples] of [...byLayer].sort((a, b) => b[1] - a[1])) console.log(`  ${perRequest(samples)}  ${layer}`)
  console.log('\ninclusive time by function, a request:')
  const top = wholeNumber(flags, 'top', 1, 1000) ?? 40
  for (const [key, samples] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(1, top + 1)) console.log(`  ${perRequest(samples)}  ${key}`)
  console.log(`\nprofile: ${join(profiles, `${name}.cpuprofile`)}`)
}

report(JSON.parse(readFileSync(join(profiles, `${name}.cpuprofile`), 'utf8')))
