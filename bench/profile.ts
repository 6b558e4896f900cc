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
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { ArgsError, parseFlags, text, usage, wholeNumber, type FlagSpec } from './lib/args'
import { profileServer } from './lib/cpu-profile'
import { adminToken, signedInEmployees } from './lib/people'
import { ROOT } from './lib/server'

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

const client = createClient({ url: dbUrl })
const months = (await client.execute('SELECT DISTINCT month FROM salaries ORDER BY month')).rows.map((row) => String(row.month))
client.close()
const result = await profileServer({
  server: which as 'service' | 'baseline',
  load: load as 's1' | 's2',
  env,
  people: await signedInEmployees(dbUrl, SECRET, 1_000_000),
  adminToken: await adminToken(dbUrl, SECRET),
  months,
  burst: burstSize,
  rounds,
  top: wholeNumber(flags, 'top', 1, 1000) ?? 40,
})

const perRequest = ({ us, share }: { us: number; share: number }) => `${us.toFixed(0).padStart(5)} µs ${(100 * share).toFixed(1).padStart(5)}%`
console.log(
  `\n${result.name}: ${result.requests.toLocaleString('en')} requests in ${result.seconds.toFixed(2)} s; the JS thread busy ${(100 * result.busyShare).toFixed(0)}% of the time, ${result.busyUs.toFixed(0)} µs a request`,
)
console.log('\nself time by layer (builtins counted to their caller), a request:')
for (const layer of result.layers) console.log(`  ${perRequest(layer)}  ${layer.layer}`)
console.log('\ninclusive time by function, a request:')
for (const fn of result.functions) console.log(`  ${perRequest(fn)}  ${fn.name}`)
console.log(`\nprofile: ${result.file}`)
