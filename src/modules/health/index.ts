import { Elysia, t } from 'elysia'
import { authenticate } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { type Message, render } from '../../lib/messages'
import type { TokenService } from '../auth/tokens'
import type { AccessResolver } from '../rbac/access'
import { ADMIN_ROLE } from '../rbac/catalogue'
import { judge } from './verdict'
import type { Probes } from './probes'

const UpDown = t.Union([t.Literal('up'), t.Literal('down')])

const Checks = t.Object(
  {
    database_read: t.Union([t.Literal('up'), t.Literal('down')], { description: 'the database answers a read (`SELECT 1`)' }),
    database_read_ms: t.Integer({ minimum: 0, description: 'how long that read took, ms' }),
    database_write: t.Union([t.Literal('up'), t.Literal('down'), t.Literal('timeout')], {
      description:
        'the write probe: this instance rewrites its row of `health_probes` in a transaction of its own, at most once per HEALTH_WRITE_PROBE_INTERVAL_MS (answers in between repeat the last result). `down`: the write failed (a full or read-only disk, a server that cannot be reached); `timeout`: it was not done within HEALTH_WRITE_PROBE_TIMEOUT_MS (a held write lock, a server that hangs on writes)',
    }),
    database_write_ms: t.Integer({ minimum: 0, description: 'how long the last write probe took, ms' }),
    storage: t.Union([t.Literal('up'), t.Literal('down')], { description: 'the file store answers' }),
    disk_free_bytes: t.Union([t.Integer({ minimum: 0 }), t.Null()], {
      description:
        "free bytes on the fullest of this machine's data locations: the embedded database's folder, the local file store and BACKUP_DIR (those that are local); null when there is none (a libSQL server and an S3 store, with BACKUP_DIR unmeasurable)",
    }),
    disk_min_free_bytes: t.Integer({ minimum: 0, description: 'HEALTH_MIN_FREE_MB in bytes: less free space than this is `degraded`; 0: never' }),
  },
  { description: 'Each part with its figure' },
)

const Health = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded'), t.Literal('down')]),
  database: UpDown,
  storage: UpDown,
  checks: Checks,
  last_backup_age_seconds: t.Optional(
    t.Union([t.Integer({ minimum: 0 }), t.Null()], {
      description:
        'Only while the service makes backups (BACKUP_INTERVAL_HOURS > 0): seconds since the newest archive in BACKUP_DIR was taken; null before the first',
    }),
  ),
  warnings: t.Optional(
    t.Array(t.String(), {
      description:
        'Only for a caller with a token of role `admin`: what the operator should fix, such as X-Forwarded-For arriving from a proxy not in TRUSTED_PROXIES, why the write probe failed, or which folder is short of space; empty when nothing is wrong',
    }),
  ),
})

export interface HealthOptions {
  tokens: TokenService
  access: AccessResolver
  /** what an administrator is shown in `warnings` */
  warnings: () => Message[]
  /** less free space than this (bytes) where the service keeps data is `degraded`; 0: never */
  minFreeBytes: number
  /** the app's locale plugin (the language of `warnings`) */
  locale: LocalePlugin
}

/** Whether the caller shows a valid token of a holder of role `admin`; any other caller is anonymous here, never refused. */
async function isAdministrator(authorization: string | undefined, { tokens, access }: HealthOptions): Promise<boolean> {
  if (!authorization) return false
  try {
    return (await authenticate(authorization, tokens, access)).roles.includes(ADMIN_ROLE)
  } catch {
    return false
  }
}

/** How long `work` took, ms, with its answer. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now()
  const value = await work()
  return [value, Math.round(performance.now() - started)]
}

/** 200 only when every part is well (`ok`); 503 when something is wrong (`degraded`) or the database does not answer (`down`). */
export const healthController = (reply: Replier, probes: Probes, options: HealthOptions) =>
  new Elysia({ name: 'health' }).use(options.locale).get(
    '/health',
    async ({ set, headers, locale }) => {
      const [[read, readMs], write, storage, backupAge, administrator] = await Promise.all([
        timed(probes.database),
        probes.databaseWrite(),
        probes.storage(),
        probes.backupAge?.(),
        isAdministrator(headers.authorization, options),
      ])
      const disk = probes.diskFree()
      const verdict = judge({ read, write, storage, disk, minFreeBytes: options.minFreeBytes })
      const data = {
        status: verdict.status,
        database: read ? 'up' : 'down',
        storage: storage ? 'up' : 'down',
        checks: {
          database_read: read ? 'up' : 'down',
          database_read_ms: readMs,
          database_write: write.state,
          database_write_ms: write.ms,
          storage: storage ? 'up' : 'down',
          disk_free_bytes: disk?.bytes ?? null,
          disk_min_free_bytes: options.minFreeBytes,
        },
        ...(backupAge !== undefined && { last_backup_age_seconds: backupAge }),
        ...(administrator && { warnings: [...options.warnings(), ...verdict.warnings].map((warning) => render(warning, locale)) }),
      } as const
      if (verdict.status === 'ok') return reply.ok(data, verdict.message)
      set.status = 503
      return { ...reply.ok(data, verdict.message), code: 503 }
    },
    {
      response: { 200: Envelope(Health), 503: Envelope(Health) },
      detail: {
        tags: ['Operations'],
        summary: 'Health of the service, its database, its file store and its disk',
        description: [
          '200 with status `ok` only when every part is well; otherwise 503, with status `down` when the database does not answer a read, else `degraded` when the write probe fails or times out, the file store does not answer (file endpoints then answer 503), or free space on a data location (embedded database, local file store, BACKUP_DIR) is under HEALTH_MIN_FREE_MB (default 256). `message` names what is wrong.',
          '`checks` gives each part with its figure: `database_read` and `database_read_ms`; `database_write` (`up`, `down` or `timeout`) and `database_write_ms`, from a small write probe run at most once per HEALTH_WRITE_PROBE_INTERVAL_MS (default 5000) with a deadline of HEALTH_WRITE_PROBE_TIMEOUT_MS (default 2000); `storage`; `disk_free_bytes` (the least among the local data locations, null when none is local) and `disk_min_free_bytes`.',
          'While the service makes backups, `last_backup_age_seconds` says how old the newest one is. A caller with a token of role `admin` also gets `warnings` (why the write probe failed, which folder is short of space, proxies not trusted); the route needs no token, and an invalid one is ignored.',
        ].join('\n\n'),
      },
    },
  )
