import { join } from 'node:path'
import { calendarDate, parseFlags, text, wholeNumber, type FlagSpec } from './args'

export const BENCH_DATA_DIR = join(import.meta.dir, '..', '.data')

export interface SeedOptions {
  /** database file; default bench/.data/workforce.db */
  db?: string
  /** local storage folder for the files' objects; default `files` beside the database */
  storage?: string
  employees?: number
  /** attendance records per employee: the last D work days (Monday to Friday) up to endDate */
  days?: number
  groups?: number
  salaryMonths?: number
  files?: number
  seed?: number
  /** last attendance work date (YYYY-MM-DD); default yesterday in UTC */
  endDate?: string
  /** every employee account's password */
  password?: string
  adminUsername?: string
  adminPassword?: string
  jwtSecret?: string
  /** upper bound of a file object's size; sizes spread from 512 bytes up to it */
  maxFileBytes?: number
  /** run PRAGMA integrity_check and foreign_key_check at the end (seconds on a large file) */
  check?: boolean
  /** replace an existing database or non-empty storage folder outside bench/.data and the temp folder */
  force?: boolean
  /** progress lines (stderr in the CLI) */
  log?: (message: string) => void
  /** "now" for the closing of past days; default the real time */
  now?: Date
}

export const DEFAULTS = {
  db: join(BENCH_DATA_DIR, 'workforce.db'),
  employees: 5000,
  days: 200,
  groups: 20,
  salaryMonths: 20,
  files: 10_000,
  seed: 1,
  password: 'bench-password-1',
  adminUsername: 'admin',
  adminPassword: 'bench-admin-password-1',
  jwtSecret: 'workforce-bench-jwt-secret-0123456789abcdef',
  maxFileBytes: 16 * 1024,
}

/** Small enough for a CI smoke test: a second or two. */
export const SMOKE_OPTIONS = { employees: 50, days: 10, groups: 3, salaryMonths: 3, files: 50, maxFileBytes: 4096 } satisfies SeedOptions

export const FLAGS: Record<string, FlagSpec> = {
  db: { help: `database file (default bench/.data/workforce.db); deleted and recreated` },
  storage: { help: 'folder for the file objects (default: files beside the database); emptied' },
  employees: { help: `employees, each with a login emp<n> (default ${DEFAULTS.employees})` },
  days: { help: `attendance records per employee: the last D weekdays (default ${DEFAULTS.days})` },
  groups: { help: `attendance groups, one rule each (default ${DEFAULTS.groups})` },
  'salary-months': { help: `salary months per employee, ending last month (default ${DEFAULTS.salaryMonths})` },
  files: { help: `file rows, each with a small object (default ${DEFAULTS.files})` },
  'max-file-bytes': { help: `largest file object (default ${DEFAULTS.maxFileBytes})` },
  seed: { help: 'random seed: the same seed gives the same data (default 1)' },
  'end-date': { help: 'last attendance work date, YYYY-MM-DD (default yesterday in UTC)' },
  password: { help: `employees' password (default ${DEFAULTS.password})` },
  'admin-password': { help: `administrator's password (default ${DEFAULTS.adminPassword})` },
  'jwt-secret': { help: 'JWT_SECRET the server will use (at least 32 bytes)' },
  smoke: { switch: true, help: 'small sizes for a CI smoke test (flags given as well win)' },
  check: { switch: true, help: 'run PRAGMA integrity_check and foreign_key_check at the end' },
  force: { switch: true, help: 'replace a database or storage folder outside bench/.data and the temp folder' },
  quiet: { switch: true, help: 'no progress lines on stderr' },
  help: { switch: true, help: 'this text' },
}

export function optionsFromArgs(argv: string[]): SeedOptions | null {
  const flags = parseFlags(argv, FLAGS)
  if (flags.has('help')) return null
  const base: SeedOptions = flags.has('smoke') ? { ...SMOKE_OPTIONS } : {}
  const given: SeedOptions = {
    db: text(flags, 'db'),
    storage: text(flags, 'storage'),
    employees: wholeNumber(flags, 'employees', 1, 1_000_000),
    days: wholeNumber(flags, 'days', 1, 5_000),
    groups: wholeNumber(flags, 'groups', 1, 10_000),
    salaryMonths: wholeNumber(flags, 'salary-months', 0, 600),
    files: wholeNumber(flags, 'files', 0, 10_000_000),
    maxFileBytes: wholeNumber(flags, 'max-file-bytes', 1024, 100 * 1024 * 1024),
    seed: wholeNumber(flags, 'seed', 0, 2 ** 32 - 1),
    endDate: calendarDate(flags, 'end-date'),
    password: text(flags, 'password'),
    adminPassword: text(flags, 'admin-password'),
    jwtSecret: text(flags, 'jwt-secret'),
    check: flags.has('check') || undefined,
    force: flags.has('force') || undefined,
    log: flags.has('quiet') ? undefined : (message: string) => console.error(`[bench:seed] ${message}`),
  }
  for (const [key, value] of Object.entries(given)) if (value !== undefined) (base as Record<string, unknown>)[key] = value
  return base
}
