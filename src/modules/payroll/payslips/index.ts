import { Elysia } from 'elysia'
import type { Locale } from '../../../config'
import type { Database } from '../../../db/client'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { ForbiddenError, NotFoundError } from '../../../http/errors'
import type { LocalePlugin } from '../../../http/locale'
import { errors } from '../../../http/openapi'
import type { Principal } from '../../rbac/access'
import { say } from '../messages'
import { MonthParams, Payslip, PayslipList, YearQuery, type PayslipResponse } from '../runs/model'
import { approvedPayslipsOf } from '../runs/repository'
import { toPayslipResponse } from '../runs/shapes'
import { OwnSummaryQuery, TaxSummary } from '../tax/model'
import type { TaxService } from '../tax/service'

/** An employee's own approved payslips (CONTRACT §16) and tax summary (§17). */
export function createPayslipsService(database: Database) {
  const own = (principal: Principal) => {
    if (principal.employeeId === null) throw new ForbiddenError(say.notLinked())
    return principal.employeeId
  }
  return {
    async list(principal: Principal, year: number | undefined, locale: Locale): Promise<{ payslips: PayslipResponse[] }> {
      const rows = await approvedPayslipsOf(database.db, own(principal), { year })
      return { payslips: rows.map((row) => toPayslipResponse(row, 'approved', locale)) }
    },
    async month(principal: Principal, month: string, locale: Locale): Promise<PayslipResponse> {
      const [row] = await approvedPayslipsOf(database.db, own(principal), { month })
      if (!row) throw new NotFoundError(say.noPayslip({ month }))
      return toPayslipResponse(row, 'approved', locale)
    },
  }
}
export type PayslipsService = ReturnType<typeof createPayslipsService>

const detail = (summary: string, extra: object = {}) => ({
  tags: ['My payslips'],
  summary,
  description: 'Only your own approved payslips: the account must be linked to an employee record.',
  ...errors({ 403: 'Your account is not linked to an employee record', ...extra }),
})

export const payslipsController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, payslips: PayslipsService, tax: TaxService) =>
  new Elysia({ name: 'payslips', prefix: '/api/v1/payslips' })
    .use(guard)
    .use(locale)
    .get('', async ({ principal, query, locale }) => reply.ok(await payslips.list(principal, query.year, locale)), {
      permission: 'salaries:read_own',
      query: YearQuery,
      response: Envelope(PayslipList),
      detail: detail('Your approved payslips, newest month first, with every line explained'),
    })
    .get('/tax-summary', async ({ principal, query }) => reply.ok(await tax.ownSummary(principal, query.year)), {
      permission: 'salaries:read_own',
      query: OwnSummaryQuery,
      response: Envelope(TaxSummary),
      detail: detail('Your income tax of a year, month by month: income, contributions, special deductions, the cumulative figures and the tax withheld'),
    })
    .get('/:month', async ({ principal, params, locale }) => reply.ok(await payslips.month(principal, params.month, locale)), {
      permission: 'salaries:read_own',
      params: MonthParams,
      response: Envelope(Payslip),
      detail: detail('Your approved payslip of a month', { 404: 'You have no approved payslip for that month' }),
    })
