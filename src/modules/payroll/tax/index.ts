import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { errors } from '../../../http/openapi'
import { say } from '../messages'
import { EmployeeParams } from '../profiles/model'
import { Declaration, DeclarationBody, DeclarationList, DeclarationParams, SummaryQuery, TaxSummary } from './model'
import type { TaxService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Payroll'], summary, ...extra })

/** Special additional deductions per employee and year, and the year's tax summary (CONTRACT §17). */
export const taxController = (guard: AuthGuard, reply: Replier, tax: TaxService) =>
  new Elysia({ name: 'payroll-tax', prefix: '/api/v1/admin' })
    .use(guard)
    .get('/employees/:id/tax-deductions', async ({ params }) => reply.ok(await tax.list(params.id)), {
      permission: 'payroll:read',
      params: EmployeeParams,
      response: Envelope(DeclarationList),
      detail: detail('An employee’s declared special additional deductions, newest year first', { ...errors({ 404: 'No such employee' }) }),
    })
    .get('/employees/:id/tax-deductions/:year', async ({ params }) => reply.ok(await tax.get(params.id, params.year)), {
      permission: 'payroll:read',
      params: DeclarationParams,
      response: Envelope(Declaration),
      detail: detail('An employee’s special additional deductions of a year', { ...errors({ 404: 'No such employee, or nothing declared for the year' }) }),
    })
    .put('/employees/:id/tax-deductions/:year', async ({ params, body, actor }) => reply.ok(await tax.put(params.id, params.year, body, actor), say.declarationSaved()), {
      permission: 'payroll:manage',
      params: DeclarationParams,
      body: DeclarationBody,
      response: Envelope(Declaration),
      detail: detail('Declare an employee’s special additional deductions of a year (monthly yuan; replaces the year’s declaration)', {
        description:
          'Counted in the cumulative withholding of every month of the year from from_month on, as declared now: a declaration made in March from January counts January and February too, in March’s cumulative figures.',
        ...errors({ 400: 'an amount above its cap, housing loan interest and housing rent both declared, from_month outside the year, or a year before 2019', 404: 'No such employee' }),
      }),
    })
    .delete('/employees/:id/tax-deductions/:year', async ({ params, actor }) => reply.ok(await tax.remove(params.id, params.year, actor).then(() => null), say.declarationDeleted()), {
      permission: 'payroll:manage',
      params: DeclarationParams,
      response: Envelope(t.Null()),
      detail: detail('Delete a year’s declaration no payslip counted', {
        ...errors({ 404: 'No such employee, or nothing declared for the year', 409: 'A payslip counted it: set its amounts to 0 instead' }),
      }),
    })
    .get('/payroll/tax-summary', async ({ principal, query }) => reply.ok(await tax.summary(principal, query.employee_id, query.year)), {
      permission: 'payroll:read',
      query: SummaryQuery,
      response: Envelope(TaxSummary),
      detail: detail('An employee’s income tax of a year, month by month: income, contributions, special deductions, the cumulative figures and the tax withheld', {
        description: 'From the approved payslips (of every company the employee was paid by that year); year defaults to this year, employee_id to the employee your account is linked to.',
        ...errors({ 400: 'employee_id left out by an account linked to no employee', 404: 'No such employee' }),
      }),
    })
