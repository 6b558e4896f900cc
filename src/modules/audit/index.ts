import { Elysia } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { P1 } from '../../http/pagination'
import { AuditLog, AuditLogQuery } from './model'
import type { AuditService } from './service'

export const auditController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, audit: AuditService) =>
  new Elysia({ name: 'audit', prefix: '/api/v1/admin/audit-logs' })
    .use(guard)
    .use(locale)
    .get('', async ({ query, locale }) => reply.ok(await audit.list(query, locale)), {
      permission: 'audit:read',
      query: AuditLogQuery,
      response: Envelope(P1(AuditLog)),
      detail: {
        tags: ['Audit'],
        summary: 'List audit entries, newest first',
        description:
          'A date `YYYY-MM-DD` in `from` or `to` is a whole UTC day; an ISO 8601 instant is exact. Entries carry the resource before and after the change, and (extension) `action_text` and `target_text`: the action and its target in words of the request’s language.',
      },
    })
