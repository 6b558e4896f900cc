import { Elysia, t } from 'elysia'
import { Envelope, type Replier } from '../../http/envelope'
import type { Probe } from './probes'

const Health = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded'), t.Literal('down')]),
  database: t.Union([t.Literal('up'), t.Literal('down')]),
  storage: t.Union([t.Literal('up'), t.Literal('down')]),
})

/** 200 while the database answers (storage down makes it "degraded"); 503 when it does not. */
export const healthController = (reply: Replier, probes: { database: Probe; storage: Probe }) =>
  new Elysia({ name: 'health' }).get(
    '/health',
    async ({ set }) => {
      const [database, storage] = await Promise.all([probes.database(), probes.storage()])
      const data = {
        status: !database ? 'down' : storage ? 'ok' : 'degraded',
        database: database ? 'up' : 'down',
        storage: storage ? 'up' : 'down',
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
          '200 while the database answers: status `ok`, or `degraded` when the file store does not (file endpoints then answer 503). 503 with status `down` when the database does not answer.',
      },
    },
  )
