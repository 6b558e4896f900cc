import { Elysia, t } from 'elysia'
import { authenticate } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { TokenService } from '../auth/tokens'
import type { AccessResolver } from '../rbac/access'
import { ADMIN_ROLE } from '../rbac/catalogue'
import type { Probes } from './probes'

const Health = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded'), t.Literal('down')]),
  database: t.Union([t.Literal('up'), t.Literal('down')]),
  storage: t.Union([t.Literal('up'), t.Literal('down')]),
  last_backup_age_seconds: t.Optional(
    t.Union([t.Integer({ minimum: 0 }), t.Null()], {
      description:
        'Only while the service makes backups (BACKUP_INTERVAL_HOURS > 0): seconds since the newest archive in BACKUP_DIR was taken; null before the first',
    }),
  ),
  warnings: t.Optional(
    t.Array(t.String(), {
      description:
        'Only for a caller with a token of role `admin`: what the operator should fix, such as X-Forwarded-For arriving from a proxy not in TRUSTED_PROXIES; empty when nothing is wrong',
    }),
  ),
})

export interface HealthOptions {
  tokens: TokenService
  access: AccessResolver
  /** what an administrator is shown in `warnings` */
  warnings: () => string[]
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

/** 200 while the database answers (storage down makes it "degraded"); 503 when it does not. */
export const healthController = (reply: Replier, probes: Probes, options: HealthOptions) =>
  new Elysia({ name: 'health' }).get(
    '/health',
    async ({ set, headers }) => {
      const [database, storage, backupAge, administrator] = await Promise.all([
        probes.database(),
        probes.storage(),
        probes.backupAge?.(),
        isAdministrator(headers.authorization, options),
      ])
      const data = {
        status: !database ? 'down' : storage ? 'ok' : 'degraded',
        database: database ? 'up' : 'down',
        storage: storage ? 'up' : 'down',
        ...(backupAge !== undefined && { last_backup_age_seconds: backupAge }),
        ...(administrator && { warnings: options.warnings() }),
      } as const
      if (!database) {
        set.status = 503
        return { ...reply.ok(data, 'The database does not answer'), code: 503 }
      }
      return reply.ok(data, storage ? 'healthy' : 'The file store does not answer; file endpoints answer 503')
    },
    {
      response: { 200: Envelope(Health), 503: Envelope(Health) },
      detail: {
        tags: ['Operations'],
        summary: 'Health of the service, its database and its file store',
        description:
          '200 while the database answers: status `ok`, or `degraded` when the file store does not (file endpoints then answer 503). 503 with status `down` when the database does not answer. While the service makes backups, `last_backup_age_seconds` says how old the newest one is. A caller with a token of role `admin` also gets `warnings`; the route needs no token, and an invalid one is ignored.',
      },
    },
  )
