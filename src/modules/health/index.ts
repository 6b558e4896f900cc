import { Elysia, t } from 'elysia'
import { Envelope, type Replier } from '../../http/envelope'
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
})

/** 200 while the database answers (storage down makes it "degraded"); 503 when it does not. */
export const healthController = (reply: Replier, probes: Probes) =>
  new Elysia({ name: 'health' }).get(
    '/health',
    async ({ set }) => {
      const [database, storage, backupAge] = await Promise.all([probes.database(), probes.storage(), probes.backupAge?.()])
      const data = {
        status: !database ? 'down' : storage ? 'ok' : 'degraded',
        database: database ? 'up' : 'down',
        storage: storage ? 'up' : 'down',
        ...(backupAge !== undefined && { last_backup_age_seconds: backupAge }),
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
          '200 while the database answers: status `ok`, or `degraded` when the file store does not (file endpoints then answer 503). 503 with status `down` when the database does not answer. While the service makes backups, `last_backup_age_seconds` says how old the newest one is.',
      },
    },
  )
