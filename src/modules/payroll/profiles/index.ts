import { Elysia } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { errors } from '../../../http/openapi'
import { say } from '../messages'
import { CompanyParams, EmployeeParams, PayProfile, PayProfileBody, PayProfileList, PaySettings, PaySettingsBody } from './model'
import type { ProfilesService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Payroll'], summary, ...extra })

/** Pay profiles of employees and pay settings of companies (CONTRACT §16). */
export const payProfilesController = (guard: AuthGuard, reply: Replier, profiles: ProfilesService) =>
  new Elysia({ name: 'payroll-profiles', prefix: '/api/v1/admin' })
    .use(guard)
    .get('/employees/:id/pay-profile', async ({ params }) => reply.ok(await profiles.profiles(params.id)), {
      permission: 'payroll:read',
      params: EmployeeParams,
      response: Envelope(PayProfileList),
      detail: detail('An employee’s pay profiles, newest first', { ...errors({ 404: 'No such employee' }) }),
    })
    .put('/employees/:id/pay-profile', async ({ params, body, actor }) => reply.ok(await profiles.putProfile(params.id, body, actor), say.profileSaved()), {
      permission: 'payroll:manage',
      params: EmployeeParams,
      body: PayProfileBody,
      response: Envelope(PayProfile),
      detail: detail('Set an employee’s pay from a month on (amounts in yuan)', {
        description: 'A month’s payroll uses the latest profile whose effective_month is not after it; history is kept.',
        ...errors({ 400: 'an amount that is negative, above 100,000,000 or has more than 2 decimals', 404: 'No such employee' }),
      }),
    })
    .get('/companies/:id/pay-settings', async ({ params }) => reply.ok(await profiles.settings(params.id)), {
      permission: 'payroll:read',
      params: CompanyParams,
      response: Envelope(PaySettings),
      detail: detail('A company’s pay settings (the defaults when never set)', { ...errors({ 404: 'No such company' }) }),
    })
    .put('/companies/:id/pay-settings', async ({ params, body, actor }) => reply.ok(await profiles.putSettings(params.id, body, actor), say.settingsSaved()), {
      permission: 'payroll:manage',
      params: CompanyParams,
      body: PaySettingsBody,
      response: Envelope(PaySettings),
      detail: detail('Set a company’s pay settings; fields left out take their defaults', {
        ...errors({ 400: 'days_per_month, a multiplier or an amount out of range', 404: 'No such company' }),
      }),
    })
