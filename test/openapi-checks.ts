import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core'
import type { App } from '../src/app'
import { req } from './helpers'

/*
 * The checks that keep /swagger/json true, as functions of a document so that they can be run on
 * any document (test/openapi.test.ts runs them on the served one). Each returns its problems.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = any
type Operation = Doc

export function operations(doc: Doc): { method: string; path: string; operation: Operation }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  )
}

/** Errors (not warnings) of Redocly's `recommended` ruleset. */
export async function lintErrors(doc: Doc): Promise<NormalizedProblem[]> {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'swagger.json', config })
  return problems.filter((problem) => problem.severity === 'error')
}

/**
 * What "Try it out" sends for a parameter with nothing but the document: its default (Swagger UI
 * takes a union's first member's), else, when the parameter is required, its example.
 */
function documentedValue(parameter: Doc): unknown {
  const schema = parameter.schema ?? {}
  const fallback = schema.default ?? (schema.anyOf ?? schema.oneOf)?.[0]?.default
  if (fallback !== undefined) return fallback
  if (parameter.required) return parameter.example ?? parameter.schema?.examples?.[0] ?? parameter.schema?.example
  return undefined
}

/** GET operations without a path parameter that take a query (lists, filters): where "Try it out" defaults matter. */
export const queryOperations = (doc: Doc) =>
  operations(doc).filter(
    ({ method, path, operation }) =>
      method === 'GET' && !path.includes('{') && (operation.parameters ?? []).some((parameter: Doc) => parameter.in === 'query'),
  )

/** Each such operation called with the document's defaults (and examples of required parameters) must answer 200. */
export async function defaultsProblems(
  app: App,
  doc: Doc,
  token: string,
  skip: Set<string>,
  nonEmpty = new Set(['GET /api/v1/admin/users', 'GET /api/v1/admin/roles']),
): Promise<string[]> {
  const problems: string[] = []
  for (const { path, operation } of queryOperations(doc)) {
    if (skip.has(`GET ${path}`)) continue
    const query = new URLSearchParams()
    for (const parameter of operation.parameters ?? []) {
      const value = documentedValue(parameter)
      if (value !== undefined) query.set(parameter.name, String(value))
    }
    const url = `${path}${query.size > 0 ? `?${query}` : ''}`
    const reply = await req(app, 'GET', url, { token })
    if (reply.status !== 200) problems.push(`GET ${url} → ${reply.status} ${reply.body?.message ?? ''}`)
    // a default that filters (status=0: disabled ones) empties a list that is not empty
    else if (nonEmpty.has(`GET ${path}`) && !(reply.body.data.total > 0)) problems.push(`GET ${url} → an empty list`)
  }
  return problems
}

/** The request body example of an operation: the media type's `example`, else its schema's first `examples`. */
export function bodyExample(operation: Operation): unknown {
  const media = operation.requestBody?.content?.['application/json']
  if (!media) return undefined
  return media.example ?? media.schema?.examples?.[0] ?? media.schema?.example
}

export interface ExampleStep {
  /** "METHOD /documented/{path}" */
  operation: string
  /** the path as sent, ids filled in */
  path?: string
  /** which token to send */
  as?: 'admin' | 'employee' | 'none'
  /** a status other than success that this example answers on purpose; it must be documented */
  expect?: number
}

/**
 * Sends every step's documented body example as is, in order. A step succeeds with 2xx, or with
 * its `expect` status when the operation documents that status. Returns the problems, and which
 * operations with a JSON body no step covers.
 */
export async function exampleProblems(
  app: App,
  doc: Doc,
  steps: ExampleStep[],
  tokens: { admin: () => Promise<string>; employee: () => Promise<string> },
): Promise<string[]> {
  const problems: string[] = []
  const withBody = operations(doc).filter(({ operation }) => operation.requestBody?.content?.['application/json'])
  const covered = new Set(steps.map((step) => step.operation))
  for (const { method, path } of withBody)
    if (!covered.has(`${method} ${path}`)) problems.push(`${method} ${path}: no step sends its example`)
  for (const step of steps) {
    const [method, path] = step.operation.split(' ')
    const operation = doc.paths[path]?.[method.toLowerCase()]
    if (!operation) {
      problems.push(`${step.operation}: not in the document`)
      continue
    }
    const example = bodyExample(operation)
    if (example === undefined) {
      problems.push(`${step.operation}: no request example`)
      continue
    }
    const token = step.as === 'none' ? undefined : step.as === 'employee' ? await tokens.employee() : await tokens.admin()
    const reply = await req(app, method, step.path ?? path, { token, body: example })
    const documented = step.expect !== undefined && String(step.expect) in (operation.responses ?? {})
    const ok = step.expect === undefined ? reply.status >= 200 && reply.status < 300 : reply.status === step.expect && documented
    if (!ok)
      problems.push(
        `${step.operation} with ${JSON.stringify(example)} → ${reply.status} ${reply.body?.message ?? ''}${step.expect !== undefined && !documented ? ` (${step.expect} is not documented)` : ''}`,
      )
  }
  return problems
}

/** Every JSON request body example in an order that makes sense on a fresh database; the ids are those it creates. */
export const EXAMPLE_STEPS: ExampleStep[] = [
  { operation: 'POST /api/v1/auth/login', as: 'none' },
  // a made-up refresh token is never current: the answer a client acts on by signing in again
  { operation: 'POST /api/v1/auth/refresh', as: 'none', expect: 401 },
  { operation: 'PUT /api/v1/auth/me' },
  { operation: 'POST /api/v1/admin/companies' },
  { operation: 'PUT /api/v1/admin/companies/{id}', path: '/api/v1/admin/companies/1' },
  { operation: 'PUT /api/v1/admin/companies/{id}/calendar/{date}', path: '/api/v1/admin/companies/1/calendar/2024-10-01' },
  { operation: 'POST /api/v1/admin/companies/{id}/calendar/import', path: '/api/v1/admin/companies/1/calendar/import' },
  { operation: 'POST /api/v1/admin/companies/{id}/calendar/apply-preset', path: '/api/v1/admin/companies/1/calendar/apply-preset' },
  { operation: 'POST /api/v1/admin/departments' },
  { operation: 'PUT /api/v1/admin/departments/{id}', path: '/api/v1/admin/departments/1' },
  { operation: 'POST /api/v1/admin/users' },
  { operation: 'PUT /api/v1/admin/users/{id}', path: '/api/v1/admin/users/2' },
  { operation: 'PUT /api/v1/admin/users/{id}/password', path: '/api/v1/admin/users/2/password' },
  { operation: 'POST /api/v1/admin/roles' },
  { operation: 'PUT /api/v1/admin/roles/{id}', path: '/api/v1/admin/roles/3' },
  { operation: 'POST /api/v1/admin/permissions' },
  { operation: 'POST /api/v1/admin/roles/permissions/add' },
  { operation: 'POST /api/v1/admin/roles/permissions/remove' },
  { operation: 'POST /api/v1/admin/roles/assign' },
  { operation: 'POST /api/v1/admin/roles/revoke' },
  { operation: 'POST /api/v1/admin/employees' },
  { operation: 'PUT /api/v1/admin/employees/{id}', path: '/api/v1/admin/employees/1' },
  // employee 1 is li.wei's, linked by the create example: it already has a login
  { operation: 'POST /api/v1/admin/employees/{id}/account', path: '/api/v1/admin/employees/1/account', expect: 409 },
  { operation: 'POST /api/v1/admin/attendance/groups' },
  { operation: 'PUT /api/v1/admin/attendance/groups/{id}', path: '/api/v1/admin/attendance/groups/1' },
  { operation: 'POST /api/v1/admin/attendance/groups/{id}/employees', path: '/api/v1/admin/attendance/groups/1/employees' },
  { operation: 'POST /api/v1/admin/attendance/rules' },
  { operation: 'PUT /api/v1/admin/attendance/rules/{id}', path: '/api/v1/admin/attendance/rules/1' },
  { operation: 'POST /api/v1/attendance/clock-in', as: 'employee' },
  { operation: 'POST /api/v1/attendance/clock-out', as: 'employee' },
  { operation: 'POST /api/v1/admin/attendance/close-day' },
  { operation: 'POST /api/v1/admin/leave/types' },
  { operation: 'PUT /api/v1/admin/leave/types/{id}', path: '/api/v1/admin/leave/types/1' },
  { operation: 'POST /api/v1/admin/leave/balances/adjust' },
  // Monday and Tuesday after the frozen Friday: work days under the rule example, while li.wei is in its group
  { operation: 'POST /api/v1/leave/requests', as: 'employee' },
  // the administrator holds approvals:manage and is not li.wei: it decides li.wei's request; deciding it again is a 409
  { operation: 'POST /api/v1/approvals/{kind}/{id}/approve', path: '/api/v1/approvals/leave/1/approve' },
  { operation: 'POST /api/v1/approvals/{kind}/{id}/reject', path: '/api/v1/approvals/leave/1/reject', expect: 409 },
  // Thursday, before the frozen Friday, has no record of li.wei's; the administrator corrects li.wei's Friday at once
  { operation: 'POST /api/v1/attendance/corrections', as: 'employee' },
  { operation: 'PUT /api/v1/admin/attendance/records/{id}', path: '/api/v1/admin/attendance/records/1' },
  { operation: 'DELETE /api/v1/admin/attendance/groups/{id}/employees', path: '/api/v1/admin/attendance/groups/1/employees' },
  { operation: 'POST /api/v1/admin/salaries' },
  { operation: 'PUT /api/v1/admin/salaries/{id}', path: '/api/v1/admin/salaries/1' },
  { operation: 'PATCH /api/v1/admin/salaries/batch-status' },
  { operation: 'POST /api/v1/admin/payroll/schemes' },
  { operation: 'PUT /api/v1/admin/payroll/schemes/{id}', path: '/api/v1/admin/payroll/schemes/1' },
  { operation: 'PUT /api/v1/admin/employees/{id}/tax-deductions/{year}', path: '/api/v1/admin/employees/1/tax-deductions/2025' },
  { operation: 'PUT /api/v1/admin/employees/{id}/pay-profile', path: '/api/v1/admin/employees/1/pay-profile' },
  { operation: 'PUT /api/v1/admin/companies/{id}/pay-settings', path: '/api/v1/admin/companies/1/pay-settings' },
  { operation: 'POST /api/v1/admin/payroll/runs' },
  { operation: 'PUT /api/v1/admin/payroll/runs/{id}/payslips/{payslip_id}/inputs', path: '/api/v1/admin/payroll/runs/1/payslips/1/inputs' },
  // file ids are random: the example's is unknown on any database
  { operation: 'POST /api/v1/storage/presigned-url', expect: 404 },
  { operation: 'DELETE /api/v1/storage/delete', expect: 404 },
  { operation: 'DELETE /api/v1/storage/batch-delete' },
  // last: it signs the administrator's other sessions out
  { operation: 'PUT /api/v1/auth/password' },
]
