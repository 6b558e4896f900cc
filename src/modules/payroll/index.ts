import { Elysia } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import type { Replier } from '../../http/envelope'
import type { Logger } from '../../lib/logger'
import type { LocalePlugin } from '../../http/locale'
import { payslipsController, createPayslipsService } from './payslips'
import { payProfilesController } from './profiles'
import { createProfilesService } from './profiles/service'
import { payrollRunsController } from './runs'
import { createRunExports } from './runs/export'
import { createRunsService, type RunsDeps } from './runs/service'
import { schemesController } from './schemes'
import { createSchemesService } from './schemes/service'
import { taxController } from './tax'
import { createTaxService } from './tax/service'

/** Payroll (CONTRACT §16, §17) as one plugin: every .use() on the app deepens its type, which TypeScript bounds. */
export const payrollController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, deps: RunsDeps & { logger: Logger }) => {
  const tax = createTaxService(deps)
  return new Elysia({ name: 'payroll' })
    .use(payProfilesController(guard, reply, createProfilesService(deps)))
    .use(payrollRunsController(guard, locale, reply, createRunsService(deps), createRunExports(deps)))
    .use(schemesController(guard, reply, createSchemesService(deps)))
    .use(taxController(guard, reply, tax))
    .use(payslipsController(guard, locale, reply, createPayslipsService(deps.database), tax))
}
