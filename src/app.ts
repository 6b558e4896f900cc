import { Elysia } from 'elysia'
import pkg from '../package.json'
import type { Config } from './config'
import type { Database } from './db/client'
import { createAuthGuard, createClientIp, type Callers } from './http/auth'
import { compression } from './http/compression'
import { consoleAssets, consolePage, type ConsoleAssets } from './http/console'
import { docs } from './http/docs'
import { replier } from './http/envelope'
import { createDiskFaultLog } from './db/disk-faults'
import { errorHandler } from './http/error-handler'
import { idempotency } from './http/idempotency'
import { localDataFolders } from './lib/disk-space'
import { watchForwarding } from './http/forwarding-watch'
import { jsonBody } from './http/json-body'
import { localeOf } from './http/locale'
import { SECURITY_HEADERS } from './http/security-headers'
import type { Clock } from './lib/clock'
import { createHashGate, hashGateOptions } from './lib/hash-gate'
import { createLimiter } from './lib/limiter'
import type { Logger } from './lib/logger'
import type { UrlSigner } from './lib/url-signer'
import { attendanceAdminController, attendanceController } from './modules/attendance'
import { createDayClose } from './modules/attendance/day-close'
import { createAttendanceService } from './modules/attendance/service'
import { attendanceSetupController } from './modules/attendance/setup'
import { createRuleCache } from './modules/attendance/setup/repository'
import { createAttendanceSetupService } from './modules/attendance/setup/service'
import { historyImportController } from './modules/attendance/history'
import { createHistoryImport } from './modules/attendance/history/service'
import { attendanceTodayController } from './modules/attendance-today'
import { createTodayBoard } from './modules/attendance-today/service'
import { auditController } from './modules/audit'
import { createAuditService } from './modules/audit/service'
import { authController } from './modules/auth'
import { createAuthService } from './modules/auth/service'
import { calendarController } from './modules/calendar'
import { createCalendarService } from './modules/calendar/service'
import type { TokenService } from './modules/auth/tokens'
import { companiesController } from './modules/companies'
import { createCompaniesService } from './modules/companies/service'
import { departmentsController } from './modules/departments'
import { createDepartmentsService } from './modules/departments/service'
import { employeesController } from './modules/employees'
import { createEmployeesService } from './modules/employees/service'
import { employeeImportController } from './modules/employees/import'
import { createEmployeeImport } from './modules/employees/import/service'
import { healthController } from './modules/health'
import { createIdempotencyService } from './modules/idempotency/service'
import { approvalsController } from './modules/approvals'
import { createApprovalsService } from './modules/approvals/service'
import { leaveAdminController, leaveController } from './modules/leave'
import { createLeaveService } from './modules/leave/service'
import { createLeaveTypesService } from './modules/leave/types'
import { createLeaveRecount } from './modules/leave/recount'
import { openingBalancesController } from './modules/leave/opening'
import { createOpeningBalances } from './modules/leave/opening/service'
import type { Probes } from './modules/health/probes'
import { permissionsController, rolesController } from './modules/rbac'
import type { AccessResolver } from './modules/rbac/access'
import { createRbacService } from './modules/rbac/service'
import { correctionsController, recordEditController } from './modules/corrections'
import { createCorrectionsService } from './modules/corrections/service'
import { payrollController } from './modules/payroll'
import { salariesAdminController, salariesEmployeeController } from './modules/salaries'
import { createSalariesService } from './modules/salaries/service'
import { exportsController } from './modules/exports'
import { createExportsService } from './modules/exports/service'
import { storageController } from './modules/storage'
import { createStorageService } from './modules/storage/service'
import type { ObjectStore } from './modules/storage/store'
import { usersController } from './modules/users'
import { createUsersService } from './modules/users/service'

export interface AppDeps {
  config: Config
  database: Database
  clock: Clock
  logger: Logger
  tokens: TokenService
  access: AccessResolver
  store: ObjectStore
  urlSigner: UrlSigner
  probes: Probes
  /** the built web console, served at `/` (null or left out: `/` sends people to the docs page) */
  console?: ConsoleAssets | null
}

/** Assembles the service; never listens (tests call `app.handle`). */
export function createApp(deps: AppDeps) {
  const { config, database, clock, logger, tokens, access } = deps
  const reply = replier(clock)
  const clientIp = createClientIp(config.trustedProxies)
  const forwarding = watchForwarding(config.trustedProxies, logger)
  const callers: Callers = new WeakMap()
  const guard = createAuthGuard(tokens, access, clientIp, callers)
  const locale = localeOf(config.locale)
  const services = { database, clock, access, defaultZone: config.defaultTimezone }
  const rbac = createRbacService(services)
  const attendanceDeps = { database, clock, defaultZone: config.defaultTimezone, ruleCache: createRuleCache() }
  const attendance = createAttendanceService(attendanceDeps)
  const salaries = createSalariesService(attendanceDeps)
  const leave = createLeaveService(attendanceDeps)
  const leaveTypes = createLeaveTypesService(services)
  const corrections = createCorrectionsService(attendanceDeps)

  return new Elysia()
    .use(consolePage(deps.console ?? null)) // its not-found answer (the console's page) goes before the error handler's
    .use(errorHandler(clock, logger, config.locale, createDiskFaultLog({ logger, clock, folders: localDataFolders(config) })))
    .use(jsonBody)
    // before the compression, which would otherwise answer first (see src/http/idempotency.ts)
    .use(idempotency({ store: createIdempotencyService({ database, clock }), callerOf: (request) => callers.get(request)?.userId ?? null, logger }))
    .onRequest(({ set }) => {
      Object.assign(set.headers, SECURITY_HEADERS)
    })
    .onRequest(forwarding.inspect)
    .use(compression())
    .use(docs(pkg.version, config.publicUrl))
    .use(consoleAssets(deps.console ?? null))
    .use(healthController(reply, deps.probes, { tokens, access, warnings: forwarding.warnings, minFreeBytes: config.health.minFreeBytes, locale }))
    .use(
      authController(
        guard,
        reply,
        createAuthService({
          ...services,
          tokens,
          refreshTtlSeconds: config.refreshTokenTtl,
          hashGate: createHashGate(hashGateOptions(config.loginConcurrency)),
        }),
        clientIp,
      ),
    )
    .use(usersController(guard, reply, createUsersService(services)))
    .use(companiesController(guard, reply, createCompaniesService(services)))
    .use(employeesController(guard, reply, createEmployeesService(services)))
    .use(employeeImportController(guard, reply, createEmployeeImport({ database, clock, hashing: createLimiter(config.loginConcurrency), defaultZone: config.defaultTimezone })))
    .use(rolesController(guard, locale, reply, rbac))
    .use(permissionsController(guard, locale, reply, rbac))
    .use(departmentsController(guard, reply, createDepartmentsService(services)))
    .use(auditController(guard, locale, reply, createAuditService(database)))
    .use(attendanceController(guard, locale, reply, attendance))
    .use(attendanceSetupController(guard, locale, reply, createAttendanceSetupService(attendanceDeps)))
    .use(attendanceAdminController(guard, locale, reply, attendance, createDayClose({ ...attendanceDeps, logger })))
    .use(attendanceTodayController(guard, locale, reply, createTodayBoard(attendanceDeps)))
    .use(calendarController(guard, locale, reply, createCalendarService(attendanceDeps, leave.leaveOf, createLeaveRecount({ db: database.db, defaultZone: config.defaultTimezone, ruleCache: attendanceDeps.ruleCache }))))
    .use(leaveAdminController(guard, reply, leave, leaveTypes))
    .use(leaveController(guard, reply, leave, leaveTypes))
    .use(correctionsController(guard, reply, corrections))
    .use(recordEditController(guard, locale, reply, corrections))
    // the first week's imports (CONTRACT §23), as one plugin: every .use() deepens the app's type, which TypeScript bounds
    .use(
      new Elysia({ name: 'history-imports' })
        .use(historyImportController(guard, reply, createHistoryImport(attendanceDeps)))
        .use(openingBalancesController(guard, reply, createOpeningBalances({ database, clock }))),
    )
    .use(approvalsController(guard, locale, reply, createApprovalsService({ database, leave, corrections })))
    // salaries and payroll as one plugin, for the same reason as the imports above
    .use(
      new Elysia({ name: 'pay' })
        .use(salariesAdminController(guard, locale, reply, salaries))
        .use(salariesEmployeeController(guard, locale, reply, salaries))
        .use(payrollController(guard, locale, reply, { ...attendanceDeps, logger })),
    )
    .use(exportsController(guard, locale, createExportsService({ ...attendanceDeps, logger })))
    .use(
      storageController(
        guard,
        reply,
        createStorageService({
          database,
          clock,
          store: deps.store,
          signer: deps.urlSigner,
          publicUrl: config.publicUrl,
          maxFileSize: config.maxFileSize,
          uploadQuota: config.uploadQuota,
          endpoint: storageEndpoint(config),
        }),
        { tokens, access },
        locale,
      ),
    )
}

/** Where clients see the file store: this service for local disk, else the bucket's URL. */
function storageEndpoint(config: Config): string {
  const { storage } = config
  if (storage.kind === 'file') return `${config.publicUrl}/api/v1/storage`
  if (storage.endpoint) return `${storage.endpoint.replace(/\/+$/, '')}/${storage.bucket}`
  return `https://${storage.bucket}.s3.${storage.region}.amazonaws.com`
}

export type App = ReturnType<typeof createApp>
