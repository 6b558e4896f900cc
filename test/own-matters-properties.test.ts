import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { req, startApp, type Reply, type TestApp } from './helpers'

/*
 * Property test of CONTRACT §15, "Nobody decides or pays themselves" (issue 25): random
 * organisations — managers, groups, moves, links, unlinks, role grants — and random request and
 * decision sequences by random callers. Invariant: no request is ever decided (approved or
 * rejected), cancelled through the HR route, or adjusted by an account that created it or was
 * linked to its employee at any time since it was made; no balance is adjusted by an account that
 * was ever linked to its employee. Also: a caller without approvals:manage decides only the
 * requests whose approver, frozen when they were made, is the caller's employee now; and that
 * frozen approver is the employee's manager, else their group's, as the organisation stood then.
 *
 * One app for the whole file; each fast-check run builds an organisation of its own in it (a
 * company, two groups with Mon–Fri rules, eight employees; eleven accounts, two of them
 * administrators, made once and linked afresh), then plays its commands on a frozen clock that moves one second per command and
 * whole days when a command says so. The model (link history, who made what when) is kept from
 * the answers; at the end the stored data (decided_by, the adjustments of the ledger, the audit
 * log, with link history rebuilt from the audit log) is checked against the same rule.
 *
 * OWN_MATTERS_SEED, OWN_MATTERS_RUNS, OWN_MATTERS_COMMANDS vary it; OWN_MATTERS_SHRINK=1 lets
 * fast-check shrink a counterexample (each try builds an organisation: slow); OWN_MATTERS_VERBOSE=1
 * prints what the runs exercised.
 */

const SEED = Number(process.env.OWN_MATTERS_SEED ?? 42)
const RUNS = Number(process.env.OWN_MATTERS_RUNS ?? 4)
const COMMANDS = Number(process.env.OWN_MATTERS_COMMANDS ?? 200)
const SHRINK = process.env.OWN_MATTERS_SHRINK === '1'
const VERBOSE = process.env.OWN_MATTERS_VERBOSE === '1'

/** Monday noon, UTC (the company's zone) */
const START = '2024-03-04T12:00:00.000Z'
const DAY = 86_400_000
/** access tokens live 30 days: a run moves the clock by less, and each run gets new ones */
const RUN_DAYS = 20

const ROLES: Record<string, string[]> = {
  approver: ['approvals:manage'],
  // linking an existing record to an account needs role employee's permissions and the reads of a record
  people: [
    'employees:read',
    'employees:update',
    'salaries:read',
    'attendance_records:read',
    'attendance:clock',
    'attendance:view',
    'attendance:correct',
    'salaries:read_own',
    'leave:request',
  ],
  grouper: ['attendance_groups:read', 'attendance_groups:update'],
  leave_hr: ['leave:read', 'leave:manage'],
}
const GRANTABLE = ['approver', 'people', 'grouper', 'leave_hr', 'employee']
const MANAGES = new Set(['admin', 'approver'])

// ---------------------------------------------------------------- commands

type Cmd =
  | { k: 'manager'; by: number; emp: number; mgr: number | null }
  | { k: 'link'; by: number; emp: number; account: number | null }
  | { k: 'join'; by: number; emp: number; group: number }
  | { k: 'part'; by: number; emp: number; group: number }
  | { k: 'group-manager'; by: number; group: number; mgr: number | null }
  | { k: 'grant' | 'revoke'; by: number; target: number; role: number }
  | { k: 'leave'; by: number; start: number; length: number; half: boolean }
  | { k: 'correction'; by: number; back: number; minute: number; out: boolean }
  | { k: 'decide'; by: number; kind: 'leave' | 'correction'; pick: number; approve: boolean }
  | { k: 'hr-cancel' | 'own-cancel'; by: number; pick: number }
  | { k: 'adjust'; by: number; emp: number; halves: number }
  | { k: 'advance'; days: number }

const by = fc.nat({ max: 1000 })
const emp = fc.nat({ max: 1000 })
const pick = fc.nat({ max: 1000 })
const group = fc.nat({ max: 1 })
const cmd = <T extends Record<string, fc.Arbitrary<unknown>>>(weight: number, fields: T) => ({ weight, arbitrary: fc.record(fields) })
const commandArb = fc.oneof(
  cmd(3, { k: fc.constant('manager' as const), by, emp, mgr: fc.option(emp, { freq: 4 }) }),
  cmd(6, { k: fc.constant('link' as const), by, emp, account: fc.option(fc.nat({ max: 1000 }), { freq: 3 }) }),
  cmd(2, { k: fc.constant('join' as const), by, emp, group }),
  cmd(1, { k: fc.constant('part' as const), by, emp, group }),
  cmd(2, { k: fc.constant('group-manager' as const), by, group, mgr: fc.option(emp, { freq: 5 }) }),
  cmd(2, { k: fc.constant('grant' as const), by, target: pick, role: fc.nat({ max: GRANTABLE.length - 1 }) }),
  cmd(1, { k: fc.constant('revoke' as const), by, target: pick, role: fc.nat({ max: GRANTABLE.length - 1 }) }),
  cmd(8, { k: fc.constant('leave' as const), by, start: fc.integer({ min: -2, max: 12 }), length: fc.nat({ max: 2 }), half: fc.boolean() }),
  cmd(3, { k: fc.constant('correction' as const), by, back: fc.nat({ max: 6 }), minute: fc.nat({ max: 59 }), out: fc.boolean() }),
  cmd(7, { k: fc.constant('decide' as const), by, kind: fc.constantFrom('leave' as const, 'leave' as const, 'correction' as const), pick, approve: fc.boolean() }),
  cmd(3, { k: fc.constant('hr-cancel' as const), by, pick }),
  cmd(1, { k: fc.constant('own-cancel' as const), by, pick }),
  cmd(3, { k: fc.constant('adjust' as const), by, emp, halves: fc.integer({ min: -4, max: 6 }).filter((n) => n !== 0) }),
  cmd(1, { k: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 3 }) }),
) as fc.Arbitrary<Cmd>

// ---------------------------------------------------------------- the model

interface Account {
  key: string
  userId: number
  token: string
  roles: Set<string>
}
/** a link of an account to an employee record, from and until (null: still linked), in ms of the frozen clock */
interface Link {
  userId: number
  from: number
  to: number | null
}
interface Employee {
  key: string
  id: number
  links: Link[]
  managerId: number | null
  groupId: number | null
}
interface Group {
  id: number
  managerId: number | null
}
interface Request {
  kind: 'leave' | 'correction'
  id: number
  employeeId: number
  createdBy: number
  createdAt: number
  approverId: number | null
  status: string
  startDate: string
}
interface Organisation {
  run: number
  started: number
  accounts: Account[]
  employees: Employee[]
  groups: Group[]
  requests: Request[]
}

/** What the runs exercised, summed over all of them: a run that only met refusals would prove nothing. */
const seen: Record<string, number> = {}
const count = (what: string) => (seen[what] = (seen[what] ?? 0) + 1)

let t: TestApp
let leaveTypeId: number
let runs = 0

const now = () => t.clock.now().getTime()
const iso = (ms: number) => new Date(ms).toISOString()
const today = () => iso(now()).slice(0, 10)
const addDays = (date: string, days: number) => iso(Date.parse(`${date}T00:00:00.000Z`) + days * DAY).slice(0, 10)
const tick = (ms = 1000) => t.clock.set(iso(now() + ms))

class Violation extends Error {}
const violation = (message: string) => {
  throw new Violation(message)
}

function describeLinks(o: Organisation, employeeId: number): string {
  const e = o.employees.find((x) => x.id === employeeId)
  const who = (userId: number) => o.accounts.find((a) => a.userId === userId)?.key ?? `user ${userId}`
  return (e?.links ?? []).map((l) => `${who(l.userId)} ${iso(l.from)}–${l.to === null ? 'now' : iso(l.to)}`).join(', ') || 'never linked'
}

const linkedNow = (o: Organisation, userId: number) => o.employees.find((e) => e.links.some((l) => l.userId === userId && l.to === null))?.id ?? null
const userOf = (e: Employee) => e.links.find((l) => l.to === null)?.userId ?? null
/** linked at some time in [since, now] */
const linkedSince = (o: Organisation, userId: number, employeeId: number, since: number) =>
  o.employees.some((e) => e.id === employeeId && e.links.some((l) => l.userId === userId && (l.to === null || l.to >= since)))
const everLinked = (o: Organisation, userId: number, employeeId: number) =>
  o.employees.some((e) => e.id === employeeId && e.links.some((l) => l.userId === userId))
const ownRequest = (o: Organisation, userId: number, r: Request) => r.createdBy === userId || linkedSince(o, userId, r.employeeId, r.createdAt)
const manages = (a: Account) => [...a.roles].some((role) => MANAGES.has(role))

/** the approver a request made now gets (CONTRACT §10, §15): the employee's manager, else their group's, never themselves */
function expectedApprover(o: Organisation, employeeId: number): number | null {
  const e = o.employees.find((x) => x.id === employeeId)!
  if (e.managerId !== null && e.managerId !== e.id) return e.managerId
  const g = o.groups.find((x) => x.id === e.groupId)
  return g && g.managerId !== null && g.managerId !== e.id ? g.managerId : null
}

/**
 * Own, though the account is not linked to the employee now: what only the request's creator and
 * the history of links tell (a rule that looked at the link of the moment alone would let it pass).
 */
const hiddenOwn = (o: Organisation, a: Account, r: Request) => ownRequest(o, a.userId, r) && linkedNow(o, a.userId) !== r.employeeId
const holds = (a: Account, ...roles: string[]) => roles.some((role) => a.roles.has(role))

/**
 * A target chosen by a caller that probes the rule now and then: `pick % 4` 0 takes one of the
 * caller's hidden own matters, 1 one of its own matters, else any (when there are such).
 */
function probe<T>(pick: number, all: T[], hidden: (x: T) => boolean, own: (x: T) => boolean): T | undefined {
  const mode = pick % 4
  const pool = mode === 0 ? all.filter(hidden) : mode === 1 ? all.filter(own) : all
  const from = pool.length > 0 ? pool : all
  return from[Math.floor(pick / 4) % Math.max(1, from.length)]
}

// ---------------------------------------------------------------- the organisation of a run

/**
 * The accounts, made once (hashing passwords is what costs): two administrators, u0–u6 for the
 * records e0–e6 of each run, and two spare accounts with no record. Each run gives them new
 * tokens, links them to its own new records and sets their roles back.
 */
const ACCOUNTS = ['admin1', 'admin2', 'u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 's0', 's1']
/** the roles each account starts a run with, besides `admin` (never granted or revoked here) */
const BASELINE: Record<string, string[]> = {
  admin1: ['employee'],
  u0: ['employee', 'approver'],
  u1: ['employee', 'people'],
  u2: ['employee', 'grouper'],
  u3: ['employee', 'leave_hr'],
  u4: ['employee'],
  u5: ['employee'],
  u6: ['employee'],
  s0: ['approver'],
  s1: ['people', 'leave_hr'],
}
const pool: Account[] = []
/** the built-in administrator (user 1), who builds each organisation and plays no command */
const root: Account = { key: 'root', userId: 1, token: '', roles: new Set(['admin']) }
let previous: Organisation | null = null

/**
 * A fresh access token for the account, as signing in would give (signing in is argon2 work, the
 * slowest part of this file, and not what it tests; test/auth.test.ts does).
 */
async function signedIn(a: Account): Promise<void> {
  const [user] = await rows(`SELECT token_version FROM users WHERE id = ${a.userId}`)
  a.token = (await t.deps.tokens.issueAccess({ id: a.userId, tokenVersion: Number(user.token_version) })).token
}

async function build(run: number): Promise<Organisation> {
  for (const a of [root, ...pool]) await signedIn(a)
  const setup = async (method: string, path: string, body: unknown, status = 200): Promise<Reply> => {
    const reply = await req(t.app, method, path, { token: root.token, body })
    if (reply.status !== status) throw new Error(`setup ${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`)
    return reply
  }
  const account = (key: string) => pool.find((a) => a.key === key)!
  // the accounts leave the records of the last run
  for (const e of previous?.employees ?? []) if (userOf(e) !== null) await setup('PUT', `/api/v1/admin/employees/${e.id}`, { user_id: null })
  const company = (await setup('POST', '/api/v1/admin/companies', { name: `Company ${run}`, timezone: 'UTC' }, 201)).body.data.id
  const employees: Employee[] = []
  for (let i = 0; i < 8; i++) {
    // e7 is the record of admin1: administrators have requests of their own too
    const holder = account(i < 7 ? `u${i}` : 'admin1')
    const made = (await setup('POST', '/api/v1/admin/employees', { name: `e${i}`, company_id: company, hire_date: '2020-01-06', user_id: holder.userId }, 201)).body
      .data
    employees.push({ key: `e${i}`, id: made.id, links: [{ userId: holder.userId, from: now(), to: null }], managerId: null, groupId: null })
    holder.roles.add('employee')
  }
  const groups: Group[] = []
  for (const [i, members] of [
    [0, [0, 1, 2, 3]],
    [1, [4, 5, 6, 7]],
  ] as const) {
    const managerId = employees[i].id
    const id = (await setup('POST', '/api/v1/admin/attendance/groups', { name: `Run ${run} group ${i}`, company_id: company, manager_id: managerId }, 201)).body
      .data.id
    await setup(
      'POST',
      '/api/v1/admin/attendance/rules',
      { name: `Run ${run} hours ${i}`, group_id: id, work_start_time: '09:00', work_end_time: '18:00', required_work_hours: 8, work_days: '1,2,3,4,5' },
      201,
    )
    await setup('POST', `/api/v1/admin/attendance/groups/${id}/employees`, { employee_ids: members.map((m) => employees[m].id) })
    for (const m of members) employees[m].groupId = id
    groups.push({ id, managerId })
  }
  for (const [report, manager] of [
    [3, 2],
    [5, 4],
  ]) {
    await setup('PUT', `/api/v1/admin/employees/${employees[report].id}`, { manager_id: employees[manager].id })
    employees[report].managerId = employees[manager].id
  }
  for (const a of pool)
    for (const role of GRANTABLE) {
      const wanted = (BASELINE[a.key] ?? []).includes(role)
      if (wanted === a.roles.has(role)) continue
      await setup('POST', `/api/v1/admin/roles/${wanted ? 'assign' : 'revoke'}`, { user_id: a.userId, role_name: role })
      if (wanted) a.roles.add(role)
      else a.roles.delete(role)
    }
  previous = { run, started: now(), accounts: pool, employees, groups, requests: [] }
  return previous
}

// ---------------------------------------------------------------- playing a command

/**
 * Who plays a command: anyone, but three in ten are one of the two administrators; requests are
 * mostly asked by an account with a record, and decisions often by the approver of a pending one.
 */
function callerOf(o: Organisation, c: Exclude<Cmd, { k: 'advance' }>): Account {
  const n = Math.floor(c.by / 10)
  if (c.k === 'leave' || c.k === 'correction') {
    const linked = o.accounts.filter((a) => linkedNow(o, a.userId) !== null)
    if (c.by % 10 < 7 && linked.length > 0) return linked[n % linked.length]
  }
  if (c.k === 'decide' && c.by % 10 < 4) {
    const approvers = new Set(o.requests.filter((r) => r.kind === c.kind && r.status === 'pending' && r.approverId !== null).map((r) => r.approverId))
    const deciders = o.accounts.filter((a) => approvers.has(linkedNow(o, a.userId)))
    if (deciders.length > 0) return deciders[n % deciders.length]
  }
  return c.by % 10 < 3 ? o.accounts[n % 2] : o.accounts[n % o.accounts.length]
}

async function play(o: Organisation, c: Cmd, step: number): Promise<void> {
  if (c.k === 'advance') {
    if (now() + c.days * DAY - o.started < RUN_DAYS * DAY) t.clock.set(iso(now() + c.days * DAY))
    return
  }
  const caller = callerOf(o, c)
  const call = async (method: string, path: string, body?: unknown) => {
    const reply = await req(t.app, method, path, { token: caller.token, body })
    if (reply.status >= 500 || reply.status === 401)
      violation(`step ${step}: ${method} ${path} by ${caller.key} → ${reply.status} ${JSON.stringify(reply.body)}`)
    return reply
  }
  const employee = (n: number) => o.employees[n % o.employees.length]
  const sync = (e: Employee, data: { manager_id: number | null; user_id: number | null; attendance_group_id: number | null }) => {
    e.managerId = data.manager_id
    e.groupId = data.attendance_group_id
    const before = userOf(e)
    if (before === data.user_id) return
    for (const l of e.links) if (l.to === null) l.to = now()
    if (data.user_id !== null) {
      e.links.push({ userId: data.user_id, from: now(), to: null })
      o.accounts.find((a) => a.userId === data.user_id)?.roles.add('employee')
    }
    count(data.user_id === null ? 'unlink' : before === null ? 'link' : 'relink')
  }
  const context = () => `step ${step}, run ${o.run}, ${caller.key} (user ${caller.userId}, roles ${[...caller.roles].join('+') || 'none'}, linked to ${linkedNow(o, caller.userId) ?? 'nothing'})`

  switch (c.k) {
    case 'manager': {
      const e = employee(c.emp)
      const reply = await call('PUT', `/api/v1/admin/employees/${e.id}`, { manager_id: c.mgr === null ? null : employee(c.mgr).id })
      if (reply.status === 200) {
        sync(e, reply.body.data)
        count('manager set')
      }
      return
    }
    case 'link': {
      // half the time the record of someone with a request still pending: whose matter is it now?
      const waiting = o.employees.filter((x) => o.requests.some((r) => r.status === 'pending' && r.employeeId === x.id))
      const e = c.emp % 2 === 0 && waiting.length > 0 ? waiting[(c.emp >> 1) % waiting.length] : employee(c.emp)
      // mostly an account linked to nothing (one linked elsewhere is refused: an account has one record)
      const free = o.accounts.filter((a) => linkedNow(o, a.userId) === null)
      const account = c.account === null ? null : c.account % 10 < 6 && free.length > 0 ? free[c.account % free.length] : o.accounts[c.account % o.accounts.length]
      const reply = await call('PUT', `/api/v1/admin/employees/${e.id}`, { user_id: account?.userId ?? null })
      if (reply.status === 200) sync(e, reply.body.data)
      return
    }
    case 'join':
    case 'part': {
      const e = employee(c.emp)
      const g = o.groups[c.group]
      const reply = await call(c.k === 'join' ? 'POST' : 'DELETE', `/api/v1/admin/attendance/groups/${g.id}/employees`, { employee_ids: [e.id] })
      if (reply.status === 200) {
        if (c.k === 'join') e.groupId = g.id
        else if (e.groupId === g.id) e.groupId = null
        count(`group ${c.k}`)
      }
      return
    }
    case 'group-manager': {
      const g = o.groups[c.group]
      const reply = await call('PUT', `/api/v1/admin/attendance/groups/${g.id}`, { manager_id: c.mgr === null ? null : employee(c.mgr).id })
      if (reply.status === 200) {
        g.managerId = reply.body.data.manager_id
        count('group manager set')
      }
      return
    }
    case 'grant':
    case 'revoke': {
      const target = o.accounts[c.target % o.accounts.length]
      const role = GRANTABLE[c.role]
      const reply = await call('POST', `/api/v1/admin/roles/${c.k === 'grant' ? 'assign' : 'revoke'}`, { user_id: target.userId, role_name: role })
      if (reply.status === 200) {
        if (c.k === 'grant') target.roles.add(role)
        else target.roles.delete(role)
        count(`role ${c.k}`)
      }
      return
    }
    case 'leave': {
      const start = addDays(today(), c.start)
      const end = addDays(start, c.length)
      const half = c.half && c.length === 0 ? { half_day: 'pm' } : {}
      const reply = await call('POST', '/api/v1/leave/requests', { type_id: leaveTypeId, start_date: start, end_date: end, reason: `step ${step}`, ...half })
      if (reply.status === 201) made(o, 'leave', caller, reply.body.data, start, context)
      return
    }
    case 'correction': {
      const date = addDays(today(), -c.back)
      const minute = String(c.minute).padStart(2, '0')
      const out = c.out && c.back > 0 ? { clock_out_time: `${date}T17:${minute}:00.000Z` } : {}
      const reply = await call('POST', '/api/v1/attendance/corrections', {
        work_date: date,
        clock_in_time: `${date}T08:${minute}:00.000Z`,
        reason: `step ${step}`,
        ...out,
      })
      if (reply.status === 201) made(o, 'correction', caller, reply.body.data, date, context)
      return
    }
    case 'decide': {
      const ofKind = o.requests.filter((r) => r.kind === c.kind)
      const mine = ofKind.filter((r) => r.status === 'pending' && r.approverId !== null && r.approverId === linkedNow(o, caller.userId))
      const pending = mine.length > 0 && c.pick % 2 === 0 ? mine : ofKind.filter((r) => r.status === 'pending')
      const r = probe(c.pick, pending.length > 0 ? pending : ofKind, (x) => hiddenOwn(o, caller, x), (x) => ownRequest(o, caller.userId, x))
      if (!r) return
      const own = ownRequest(o, caller.userId, r)
      const entitled = manages(caller) || (r.approverId !== null && linkedNow(o, caller.userId) === r.approverId)
      if (entitled && r.status === 'pending' && hiddenOwn(o, caller, r)) count('hidden own matter: decision tried')
      // the organisation gives the request another approver now: the frozen one still decides, the new one does not
      const moved = r.status === 'pending' && expectedApprover(o, r.employeeId) !== r.approverId
      if (moved && !manages(caller) && linkedNow(o, caller.userId) === expectedApprover(o, r.employeeId) && !own) count('approver since the request tried')
      const reply = await call('POST', `/api/v1/approvals/${c.kind}/${r.id}/${c.approve ? 'approve' : 'reject'}`, c.approve ? { note: 'fine' } : { note: 'no' })
      if (reply.status !== 200) return
      if (own)
        violation(
          `${context()} ${c.approve ? 'approved' : 'rejected'} its own ${r.kind} request ${r.id}: made by user ${r.createdBy} at ${iso(r.createdAt)} for employee ${r.employeeId}, whose links were ${describeLinks(o, r.employeeId)}`,
        )
      if (!manages(caller) && (r.approverId === null || linkedNow(o, caller.userId) !== r.approverId))
        violation(`${context()} decided ${r.kind} request ${r.id}, whose approver frozen when it was made is employee ${r.approverId}, without approvals:manage`)
      r.status = reply.body.data.status
      count(`${r.kind} ${r.status}`)
      count(`decided by ${manages(caller) ? 'a holder of approvals:manage' : 'its approver'}`)
      if (moved && !manages(caller)) count('decided by its frozen approver after the organisation changed')
      return
    }
    case 'hr-cancel':
    case 'own-cancel': {
      const open = o.requests.filter((r) => r.kind === 'leave' && (r.status === 'pending' || r.status === 'approved'))
      if (open.length === 0) return
      // approved leave mostly: ending it once it has begun is what only HR may, and never their own
      const approved = open.filter((x) => x.status === 'approved')
      const r = probe(c.pick, c.pick % 8 < 6 && approved.length > 0 ? approved : open, (x) => hiddenOwn(o, caller, x), (x) => ownRequest(o, caller.userId, x))!
      const own = ownRequest(o, caller.userId, r)
      const started = r.status === 'approved' && r.startDate <= today()
      const path = c.k === 'hr-cancel' ? `/api/v1/admin/leave/requests/${r.id}/cancel` : `/api/v1/leave/requests/${r.id}/cancel`
      if (c.k === 'hr-cancel' && hiddenOwn(o, caller, r) && holds(caller, 'admin', 'leave_hr')) count('hidden own matter: HR cancel tried')
      const reply = await call('POST', path, {})
      if (reply.status !== 200) return
      if (c.k === 'hr-cancel' && own)
        violation(
          `${context()} cancelled its own ${r.status}${started ? ', started' : ''} leave request ${r.id} (from ${r.startDate}) through the HR route: made by user ${r.createdBy} at ${iso(r.createdAt)} for employee ${r.employeeId}, whose links were ${describeLinks(o, r.employeeId)}`,
        )
      count(`${c.k}${started ? ' after the start' : ''}`)
      r.status = 'cancelled'
      return
    }
    case 'adjust': {
      const e = probe(c.emp, o.employees, (x) => everLinked(o, caller.userId, x.id) && linkedNow(o, caller.userId) !== x.id, (x) => everLinked(o, caller.userId, x.id))!
      const ever = everLinked(o, caller.userId, e.id)
      if (ever && linkedNow(o, caller.userId) !== e.id && holds(caller, 'admin', 'leave_hr')) count('hidden own matter: adjustment tried')
      const reply = await call('POST', '/api/v1/admin/leave/balances/adjust', {
        employee_id: e.id,
        type_id: leaveTypeId,
        year: Number(today().slice(0, 4)),
        days: c.halves / 2,
        reason: `step ${step}`,
      })
      if (reply.status !== 200) return
      if (ever) violation(`${context()} adjusted the balance of employee ${e.id}, whose links were ${describeLinks(o, e.id)}`)
      count('adjustment')
      return
    }
  }
}

/** A request made: kept in the model; its frozen approver must be the one the organisation gave then. */
function made(o: Organisation, kind: 'leave' | 'correction', caller: Account, data: Record<string, any>, startDate: string, context: () => string) {
  const employeeId = data.employee_id as number
  if (linkedNow(o, caller.userId) !== employeeId) violation(`${context()} made a ${kind} request for employee ${employeeId}, not its own`)
  const approverId = (data.approver?.id ?? null) as number | null
  const expected = expectedApprover(o, employeeId)
  if (approverId !== expected) violation(`${context()}: ${kind} request ${data.id} got approver ${approverId}; the organisation gives ${expected}`)
  o.requests.push({ kind, id: data.id, employeeId, createdBy: caller.userId, createdAt: Date.parse(data.created_at), approverId, status: data.status, startDate })
  count(`${kind} requested`)
}

async function runOnce(commands: Cmd[]): Promise<void> {
  const o = await build(++runs)
  for (const [step, c] of commands.entries()) {
    await play(o, c, step)
    tick()
  }
  // the next run starts on a later day, signing in afresh
  t.clock.set(iso(Date.parse(`${addDays(today(), 1)}T12:00:00.000Z`)))
}

// ---------------------------------------------------------------- the stored data

type Row = Record<string, unknown>
async function rows(sql: string): Promise<Row[]> {
  const result = await t.deps.database.client.execute(sql)
  return result.rows.map((row) => Object.fromEntries(result.columns.map((column) => [column, row[column]])))
}
const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, any> | null

/**
 * The rule over what is stored: link history rebuilt from the audit log of employee records
 * (independent of employee_links, which the service reads), then every decision, HR cancellation of
 * started leave and adjustment checked against it. Returns what it checked.
 */
async function storedViolations(): Promise<{ problems: string[]; checked: Record<string, number> }> {
  const problems: string[] = []
  const checked: Record<string, number> = {}
  const tally = (what: string) => (checked[what] = (checked[what] ?? 0) + 1)
  const history = new Map<number, Link[]>()
  for (const entry of await rows(`SELECT action, resource_id, before, after, created_at FROM audit_logs WHERE resource = 'employee' ORDER BY id`)) {
    const id = Number(entry.resource_id)
    const from = (json(entry.before)?.user_id ?? null) as number | null
    const to = entry.action === 'employee.delete' ? null : ((json(entry.after)?.user_id ?? null) as number | null)
    if (from === to) continue
    const links = history.get(id) ?? []
    history.set(id, links)
    const at = Number(entry.created_at)
    for (const l of links) if (l.to === null) l.to = at
    if (to !== null) links.push({ userId: to, from: at, to: null })
  }
  // the service's own record of links says the same
  const stored = new Map<number, Link[]>()
  for (const l of await rows(`SELECT employee_id, user_id, linked_at, unlinked_at FROM employee_links ORDER BY id`)) {
    const links = stored.get(Number(l.employee_id)) ?? []
    stored.set(Number(l.employee_id), links)
    links.push({ userId: Number(l.user_id), from: Number(l.linked_at), to: l.unlinked_at === null ? null : Number(l.unlinked_at) })
  }
  for (const [id, links] of history)
    if (JSON.stringify(stored.get(id) ?? []) !== JSON.stringify(links))
      problems.push(`employee_links of employee ${id} ${JSON.stringify(stored.get(id) ?? [])} differ from its audited links ${JSON.stringify(links)}`)

  const linkedBetween = (userId: number, employeeId: number, since: number | null, until: number) =>
    (history.get(employeeId) ?? []).some((l) => l.userId === userId && l.from <= until && (since === null || l.to === null || l.to >= since))
  const own = (actor: number, r: Row, at: number) =>
    actor === Number(r.created_by) || actor === Number(r.linked_user_id) || linkedBetween(actor, Number(r.employee_id), Number(r.created_at), at)

  const requests: Record<string, Map<number, Row>> = { leave_request: new Map(), attendance_correction: new Map() }
  for (const [resource, table] of [
    ['leave_request', 'leave_requests'],
    ['attendance_correction', 'attendance_corrections'],
  ] as const) {
    for (const r of await rows(`SELECT id, employee_id, created_by, linked_user_id, created_at, status, decided_by, decided_at FROM ${table}`)) {
      requests[resource].set(Number(r.id), r)
      // a correction cancelled by its owner stores the owner as decided_by: not a decision
      if (r.decided_by === null || (table === 'attendance_corrections' && r.status === 'cancelled')) continue
      tally(`${table}.decided_by`)
      if (own(Number(r.decided_by), r, Number(r.decided_at)))
        problems.push(`${table} ${r.id} (employee ${r.employee_id}, made by user ${r.created_by}) was decided by its own user ${r.decided_by}`)
    }
  }
  for (const a of await rows(`SELECT action, resource, resource_id, actor_id, before, created_at FROM audit_logs
      WHERE action IN ('leave_request.approve', 'leave_request.reject', 'attendance_correction.approve', 'attendance_correction.reject', 'leave_request.cancel', 'leave_balance.adjust')
      ORDER BY id`)) {
    const at = Number(a.created_at)
    const actor = Number(a.actor_id)
    if (a.action === 'leave_balance.adjust') {
      tally('audit leave_balance.adjust')
      const employeeId = Number(String(a.resource_id).split('/')[0])
      if (linkedBetween(actor, employeeId, null, at)) problems.push(`audit: user ${actor} adjusted the balance of employee ${employeeId}, once linked to it`)
      continue
    }
    const r = requests[String(a.resource)].get(Number(a.resource_id))!
    if (a.action === 'leave_request.cancel') {
      // only an HR cancellation ends approved leave that has begun (the employee's own route refuses it)
      const before = json(a.before)!
      if (before.status !== 'approved' || before.start_date > new Date(at).toISOString().slice(0, 10)) continue
      tally('audit cancellation of started leave')
    } else tally(`audit ${a.action}`)
    if (own(actor, r, at)) problems.push(`audit: ${a.action} of ${a.resource} ${a.resource_id} (made by user ${r.created_by}) by its own user ${actor}`)
  }
  for (const l of await rows(`SELECT employee_id, actor_id, created_at FROM leave_ledger WHERE kind = 'adjustment'`)) {
    tally('leave_ledger adjustment')
    if (linkedBetween(Number(l.actor_id), Number(l.employee_id), null, Number(l.created_at)))
      problems.push(`leave_ledger: user ${l.actor_id} adjusted the balance of employee ${l.employee_id}, once linked to it`)
  }
  return { problems, checked }
}

// ---------------------------------------------------------------- the tests

beforeAll(async () => {
  t = await startApp({ now: START, env: { ACCESS_TOKEN_TTL: String(30 * 86_400) } })
  await signedIn(root)
  const admin = (path: string, body: unknown) => req(t.app, 'POST', path, { token: root.token, body })
  for (const [role, permissions] of Object.entries(ROLES)) {
    expect((await admin('/api/v1/admin/roles', { name: role })).status).toBe(201)
    for (const permission of permissions) expect((await admin('/api/v1/admin/roles/permissions/add', { role_name: role, permission_name: permission })).status).toBe(200)
  }
  const type = await admin('/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 200 })
  expect(type.status).toBe(201)
  leaveTypeId = type.body.data.id
  // hashing their passwords runs off the main thread: all at once; the accounts take their parts in
  // the order of their ids, so that every run of the file is the same
  const made = await Promise.all(
    ACCOUNTS.map((_, i) => admin('/api/v1/admin/users', { username: `pm_${i}`, password: 'pool-password-1', name: `pm_${i}` })),
  )
  for (const reply of made) expect(reply.status).toBe(201)
  const ids = made.map((reply) => reply.body.data.id as number).sort((a, b) => a - b)
  for (const [i, key] of ACCOUNTS.entries()) {
    const isAdmin = key.startsWith('admin')
    if (isAdmin) expect((await admin('/api/v1/admin/roles/assign', { user_id: ids[i], role_name: 'admin' })).status).toBe(200)
    pool.push({ key, userId: ids[i], token: '', roles: new Set(isAdmin ? ['admin'] : []) })
  }
}, 60_000)

afterAll(() => t?.close())

describe('nobody decides, cancels or adjusts their own matters (CONTRACT §15)', () => {
  test(`${RUNS} random organisations × ${COMMANDS} commands, seed ${SEED}`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: SHRINK ? 1 : COMMANDS, maxLength: COMMANDS, size: 'max' }), runOnce),
      { seed: SEED, numRuns: RUNS, endOnFailure: !SHRINK },
    )
    if (VERBOSE) console.log(JSON.stringify(seen, null, 1))
    // the runs reached what the rule guards: decisions both ways, cancellations after the start, adjustments, relinking
    const missing = Object.entries({
      'leave approved': 1,
      'correction approved': 1,
      'decided by its approver': 1,
      'decided by a holder of approvals:manage': 1,
      'hr-cancel after the start': 1,
      adjustment: 1,
      unlink: 1,
      relink: 1,
      'hidden own matter: decision tried': 1,
      'hidden own matter: HR cancel tried': 1,
      'hidden own matter: adjustment tried': 1,
    }).filter(([what, least]) => (seen[what] ?? 0) < least)
    expect(missing).toEqual([])
  }, 600_000)

  test('the stored decisions, cancellations and adjustments keep the rule too', async () => {
    const { problems, checked } = await storedViolations()
    if (VERBOSE) console.log(JSON.stringify(checked, null, 1))
    expect(problems).toEqual([])
    for (const what of ['leave_requests.decided_by', 'attendance_corrections.decided_by', 'leave_ledger adjustment', 'audit cancellation of started leave'])
      expect({ what, some: (checked[what] ?? 0) > 0 }).toEqual({ what, some: true })
  })
})
