import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { employees } from '../src/db/schema'
import { login, loginAdmin, makeUser, req, startApp, type TestApp } from './helpers'

/*
 * CONTRACT §12, exports: October 2024 in Asia/Shanghai (1 October is a Tuesday), the attendance
 * sheet and the salary register as CSV and XLSX, parsed back (csv-parse, exceljs) and compared
 * with the statistics endpoint at the same moment and with figures by hand.
 *
 * Group 1 "Office" (rule 09:00–18:00, break 12:00–13:00, 5 minutes' grace, 8 h, Mon–Fri,
 * overtime from 30 minutes), group 2 "Warehouse" (the same hours); company Acme's calendar:
 * 1 October a holiday, Saturday 12 October a make-up workday. Usual day: 08:55–18:05.
 *
 *   ann  Operations, group 1: 08 late (09:20), 09 early (out 17:00), 10 no clock-out (exception at
 *        day close), 11 overtime (out 19:00, 60 min), 15 absent (day close), 17 full day of
 *        leave, 23 morning off (13:04–18:00)
 *   bob  Operations, group 1, hired 14 October: 21 missed (that date is never closed: no record)
 *   cat  Finance, group 1: works the holiday (10:00–15:00), 22 afternoon off and not there
 *        (day close: absent), 25–28 (Fri–Mon) full days of leave
 *   dan  Operations, group 2: misses the make-up Saturday (day close: absent)
 *   eve  Operations, group 1: works the 2nd and 3rd, marked as left on the 4th
 *   fay  left, no record in October: not on the sheet; gus hired in November: not on it either
 *   and four employees of department 'R&D, "Labs"' in no group, with names that look like formulas
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
const MONTH = '2024-10'
const DATES = Array.from({ length: 31 }, (_, i) => `2024-10-${String(i + 1).padStart(2, '0')}`)
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const TOTAL_HEADERS = [
  'work_days',
  'attendance_days',
  'late_days',
  'late_minutes',
  'early_days',
  'absent_days',
  'leave_days',
  'overtime_hours',
  'work_hours',
]
const ATTENDANCE_HEADER = ['employee_no', 'name', 'department', ...DATES, ...TOTAL_HEADERS]
const INJECTIONS = ['=HYPERLINK("http://evil.example","click")', '+1', '-2', '@x']

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}

const at = (dateTime: string) => t.clock.set(local(dateTime))
const adminReq = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  req(t.app, method, path, { token: admin, body, headers })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })
const created = async (method: string, path: string, body: unknown) => {
  const reply = await adminReq(method, path, body)
  if (reply.status !== 201 && reply.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(reply.body)}`)
  return reply.body.data
}

const RULE = {
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 5,
  early_grace_period: 0,
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

// weekday 1–7 (Monday 1) of an October 2024 date
const weekdayOf = (date: string) => (Number(date.slice(8)) % 7) + 1
const HOLIDAY = '2024-10-01'
const MAKE_UP = '2024-10-12'
const isWorkDay = (date: string) => date === MAKE_UP || (date !== HOLIDAY && weekdayOf(date) <= 5)

type Shape = [string, string | null] | null
const USUAL: Shape = ['08:55', '18:05']
const ANN: Record<string, Shape> = {
  '2024-10-08': ['09:20', '18:10'],
  '2024-10-09': ['08:55', '17:00'],
  '2024-10-10': ['08:55', null],
  '2024-10-11': ['08:55', '19:00'],
  '2024-10-15': null,
  '2024-10-17': null,
  '2024-10-23': ['13:04', '18:00'],
}
/** Each person's clock-in and clock-out (null: none) on a date, or null for no clock-in. */
const SCHEDULE: Record<string, (date: string) => Shape> = {
  ann: (date) => (date in ANN ? ANN[date] : isWorkDay(date) ? USUAL : null),
  bob: (date) => (date >= '2024-10-14' && date !== '2024-10-21' && isWorkDay(date) ? USUAL : null),
  cat: (date) =>
    date === HOLIDAY ? ['10:00', '15:00'] : date === '2024-10-22' || (date >= '2024-10-25' && date <= '2024-10-28') ? null : isWorkDay(date) ? USUAL : null,
  dan: (date) => (date !== MAKE_UP && isWorkDay(date) ? USUAL : null),
  eve: (date) => (date === '2024-10-02' || date === '2024-10-03' ? USUAL : null),
}
const PEOPLE = Object.keys(SCHEDULE)

const signIn = async () => {
  admin = await loginAdmin(t.app)
  for (const name of PEOPLE) tokens[name] = await login(t.app, name, `${name}-password`)
}

async function leave(who: string, body: Record<string, unknown>) {
  const asked = await as(who, 'POST', '/api/v1/leave/requests', { type_id: 1, reason: 'Family', ...body })
  expect(asked.status).toBe(201)
  const approved = await adminReq('POST', `/api/v1/approvals/leave/${asked.body.data.id}/approve`, { note: 'Fine' })
  expect(approved.status).toBe(200)
}

beforeAll(async () => {
  t = await startApp({ now: local('2024-09-01T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  await created('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
  for (const name of ['Operations', 'Finance', 'R&D, "Labs"']) await created('POST', '/api/v1/admin/departments', { name })
  await created('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1 })
  await created('POST', '/api/v1/admin/attendance/groups', { name: 'Warehouse', company_id: 1 })
  await created('POST', '/api/v1/admin/attendance/rules', { name: 'Office hours', group_id: 1, ...RULE })
  await created('POST', '/api/v1/admin/attendance/rules', { name: 'Warehouse hours', group_id: 2, ...RULE })
  await created('POST', '/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 10 })
  await created('POST', '/api/v1/admin/companies/1/calendar/import', {
    days: [
      { date: HOLIDAY, kind: 'holiday', name: 'National Day' },
      { date: MAKE_UP, kind: 'workday', name: 'Make-up day' },
    ],
  })
  const people: [string, string, number, string][] = [
    ['ann', 'E001', 1, '2024-01-01'],
    ['bob', 'E002', 1, '2024-10-14'],
    ['cat', 'E003', 2, '2024-01-01'],
    ['dan', 'E004', 1, '2024-01-01'],
    ['eve', 'E005', 1, '2024-01-01'],
  ]
  for (const [name, employee_no, department_id, hire_date] of people) {
    const employee = await created('POST', '/api/v1/admin/employees', {
      name,
      employee_no,
      department_id,
      hire_date,
      username: name,
      password: `${name}-password`,
    })
    ids[name] = employee.id
  }
  for (const [name, employee_no, status, hire_date] of [
    ['fay', 'E006', 0, '2024-01-01'],
    ['gus', 'E007', 1, '2024-11-05'],
  ] as const)
    ids[name] = (await created('POST', '/api/v1/admin/employees', { name, employee_no, status, hire_date, department_id: 1 })).id
  for (const [i, name] of INJECTIONS.entries())
    ids[name] = (await created('POST', '/api/v1/admin/employees', { name, employee_no: i === 0 ? '-007' : `X${i}`, department_id: 3, hire_date: '2024-05-01' })).id
  await created('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.ann, ids.bob, ids.cat, ids.eve] })
  await created('POST', '/api/v1/admin/attendance/groups/2/employees', { employee_ids: [ids.dan] })
  await signIn()

  for (const date of DATES) {
    at(`${date}T07:00:00`)
    if (date === '2024-10-01') await signIn()
    if (date === '2024-10-04') expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.eve}`, { status: 0 })).status).toBe(200)
    if (date === '2024-10-16') await leave('ann', { start_date: '2024-10-17', end_date: '2024-10-17' })
    if (date === '2024-10-20') await leave('cat', { start_date: '2024-10-25', end_date: '2024-10-28' })
    if (date === '2024-10-21') {
      await leave('cat', { start_date: '2024-10-22', end_date: '2024-10-22', half_day: 'pm' })
      await signIn()
    }
    if (date === '2024-10-22') await leave('ann', { start_date: '2024-10-23', end_date: '2024-10-23', half_day: 'am' })
    for (const who of PEOPLE) {
      const shape = SCHEDULE[who](date)
      if (!shape) continue
      at(`${date}T${shape[0]}:00`)
      const clockIn = await as(who, 'POST', '/api/v1/attendance/clock-in', {})
      expect(clockIn.status, `${who} ${date} ${JSON.stringify(clockIn.body)}`).toBe(200)
      if (!shape[1]) continue
      at(`${date}T${shape[1]}:00`)
      expect((await as(who, 'POST', '/api/v1/attendance/clock-out', {})).status).toBe(200)
    }
  }
  at('2024-11-01T10:00:00')
  await signIn()
  // every date closed but the 21st (bob's missed day stays without a record)
  for (const date of DATES.filter((date) => date !== '2024-10-21'))
    for (const group_id of [1, 2]) expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date, group_id })).status).toBe(200)
}, 60_000)

afterAll(() => t.close())

interface Download {
  status: number
  headers: Headers
  bytes: Uint8Array
}

async function download(path: string, token = admin, headers: Record<string, string> = {}): Promise<Download> {
  const response = await t.app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } }))
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
}

const BOM = [0xef, 0xbb, 0xbf]

/** The CSV's records as text, after checking the byte-order mark and the CRLF line ends. */
function csvRows(file: Download): string[][] {
  expect([...file.bytes.slice(0, 3)]).toEqual(BOM)
  const text = new TextDecoder().decode(file.bytes.slice(3))
  expect(text.endsWith('\r\n')).toBe(true)
  expect(text.replaceAll('\r\n', '').includes('\n')).toBe(false)
  return parse(text, { relax_column_count: false })
}

/** The XLSX's first sheet as rows of values (empty cells as null), with the types exceljs read. */
async function xlsxRows(file: Download) {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(file.bytes.buffer as ArrayBuffer)
  const sheet = workbook.worksheets[0]
  const rows: ExcelJS.CellValue[][] = []
  // columnCount walks every row: read it once
  const columns = sheet.columnCount
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values: ExcelJS.CellValue[] = []
    for (let column = 1; column <= columns; column++) values.push(row.getCell(column).value ?? null)
    rows.push(values)
  })
  return { sheet, rows }
}

/** A CSV field as the same cell of the XLSX holds it: numbers as numbers, empty as null. */
const asXlsx = (header: string, field: string) =>
  field === '' ? null : ATTENDANCE_HEADER.indexOf(header) >= 3 + DATES.length || NUMERIC_SALARY.has(header) ? Number(field) : field

const statisticsOf = async (who: string) => {
  const reply = await as(who, 'GET', `/api/v1/attendance/statistics?start_date=${MONTH}-01&end_date=${MONTH}-31`)
  expect(reply.status).toBe(200)
  return reply.body.data
}

/** The sheet's totals of a row, by header. */
const totalsOf = (row: string[]) => Object.fromEntries(TOTAL_HEADERS.map((header, i) => [header, Number(row[3 + DATES.length + i])]))
const codesOf = (row: string[]) => row.slice(3, 3 + DATES.length)
const rowOf = (rows: string[][], name: string) => rows.find((row) => row[1] === name)!

const statisticsTotals = (statistics: Record<string, number>) => ({
  work_days: statistics.work_days,
  attendance_days: statistics.attendance_days,
  late_days: statistics.late_days,
  late_minutes: statistics.total_late_minutes,
  early_days: statistics.early_days,
  absent_days: statistics.absent_days,
  leave_days: statistics.leave_days,
  overtime_hours: statistics.overtime_hours,
  work_hours: statistics.total_work_hours,
})

const D = (day: number) => day - 1
/** ann's codes by hand (see the top of the file). */
const ANN_CODES = DATES.map((date) => {
  const special: Record<string, string> = {
    '2024-10-01': 'H',
    '2024-10-08': 'L',
    '2024-10-09': 'E',
    '2024-10-10': 'X',
    '2024-10-15': 'A',
    '2024-10-17': 'V',
    '2024-10-23': '½V',
  }
  return special[date] ?? (isWorkDay(date) ? '✓' : '')
})

describe('the attendance sheet', () => {
  let csv: Download
  let rows: string[][]
  beforeAll(async () => {
    csv = await download(`/api/v1/admin/exports/attendance?month=${MONTH}&format=csv`)
    rows = csvRows(csv)
  })

  test('a CSV download: its headers, a BOM, CRLF, the whole header row and a row per employee by id', () => {
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="attendance-2024-10.csv"')
    expect(csv.headers.get('cache-control')).toBe('no-store')
    expect(rows[0]).toEqual(ATTENDANCE_HEADER)
    // active employees hired by the month's end, and eve (left, with records in October); not fay (left, none) nor gus (hired in November)
    expect(rows.slice(1).map((row) => row[1])).toEqual(['ann', 'bob', 'cat', 'dan', 'eve', "'=HYPERLINK(\"http://evil.example\",\"click\")", "'+1", "'-2", "'@x"])
    expect(rows.slice(1).map((row) => [row[0], row[2]])).toEqual([
      ['E001', 'Operations'],
      ['E002', 'Operations'],
      ['E003', 'Finance'],
      ['E004', 'Operations'],
      ['E005', 'Operations'],
      ["'-007", 'R&D, "Labs"'],
      ['X1', 'R&D, "Labs"'],
      ['X2', 'R&D, "Labs"'],
      ['X3', 'R&D, "Labs"'],
    ])
    // the quoting as written: the department with a comma and quotes, the formula's quotes doubled
    const text = new TextDecoder().decode(csv.bytes)
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")","R&D, ""Labs"""`)
  })

  test('every employee’s totals are what the statistics endpoint answers them at the same moment', async () => {
    for (const who of PEOPLE) expect({ who, ...totalsOf(rowOf(rows, who)) }).toEqual({ who, ...statisticsTotals(await statisticsOf(who)) })
  })

  test('ann’s month by hand: every code and the totals', () => {
    const row = rowOf(rows, 'ann')
    expect(codesOf(row)).toEqual(ANN_CODES)
    expect(totalsOf(row)).toMatchObject({
      work_days: 23,
      attendance_days: 21,
      late_days: 1,
      late_minutes: 20,
      early_days: 1,
      absent_days: 1,
      leave_days: 1.5,
      overtime_hours: 1,
    })
  })

  test('bob, hired on the 14th: nothing before (the holiday still H), his missed Monday without a record is A', () => {
    const codes = codesOf(rowOf(rows, 'bob'))
    expect(codes.slice(0, D(14))).toEqual(DATES.slice(0, D(14)).map((date) => (date === HOLIDAY ? 'H' : '')))
    expect(codes.slice(D(14))).toEqual(DATES.slice(D(14)).map((date) => (date === '2024-10-21' ? 'A' : isWorkDay(date) ? '✓' : '')))
    // no date before his hire date is a work day (CONTRACT §23): 14 work days from the 14th, 13 attended
    expect(totalsOf(rowOf(rows, 'bob'))).toMatchObject({ work_days: 14, absent_days: 1, attendance_days: 13 })
  })

  test('cat: a record on the holiday shows its code, half a day off and absent the other half is A, full days of leave over a weekend are V on the work days', () => {
    const codes = codesOf(rowOf(rows, 'cat'))
    expect(codes[D(1)]).toBe('✓')
    expect(codes[D(22)]).toBe('A')
    expect(codes.slice(D(25), D(29))).toEqual(['V', '', '', 'V'])
    // the half day counts as leave although its cell says A
    expect(totalsOf(rowOf(rows, 'cat'))).toMatchObject({ absent_days: 1, leave_days: 2.5 })
  })

  test('dan misses the make-up Saturday: A; eve, marked as left on the 4th, is absent every work day after as statistics count her', () => {
    expect(codesOf(rowOf(rows, 'dan'))[D(12)]).toBe('A')
    const eve = codesOf(rowOf(rows, 'eve'))
    expect(eve.slice(0, 4)).toEqual(['H', '✓', '✓', 'A'])
    expect(totalsOf(rowOf(rows, 'eve')).absent_days).toBe(eve.filter((code) => code === 'A').length)
  })

  test('the codes count what the totals count: A cells are absent_days for everyone; V and ½V are leave_days where no other code overrides them', () => {
    for (const row of rows.slice(1)) {
      const codes = codesOf(row)
      const totals = totalsOf(row)
      expect({ name: row[1], absent: codes.filter((code) => code === 'A').length }).toEqual({ name: row[1], absent: totals.absent_days })
      expect(codes.every((code) => ['✓', 'L', 'E', 'A', 'X', 'V', '½V', 'H', ''].includes(code))).toBe(true)
    }
    for (const who of ['ann', 'bob', 'dan', 'eve']) {
      const codes = codesOf(rowOf(rows, who))
      expect(codes.filter((code) => code === 'V').length + codes.filter((code) => code === '½V').length / 2).toBe(totalsOf(rowOf(rows, who)).leave_days)
    }
  })

  test('employees outside any group: no work days, zeros, empty dates (the holiday is their group’s company’s)', () => {
    const row = rowOf(rows, "'+1")
    expect(codesOf(row)).toEqual(DATES.map(() => ''))
    expect(totalsOf(row)).toEqual(Object.fromEntries(TOTAL_HEADERS.map((header) => [header, 0])))
  })

  test('the XLSX in the data layout holds the same cells: numbers as numbers, text as text (never a formula), the header bold and frozen', async () => {
    const file = await download(`/api/v1/admin/exports/attendance?month=${MONTH}&format=xlsx&layout=data`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe(XLSX_TYPE)
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="attendance-2024-10.xlsx"')
    const { sheet, rows: cells } = await xlsxRows(file)
    expect(sheet.name).toBe('Attendance 2024-10')
    expect(cells).toEqual(rows.map((row, r) => row.map((field, i) => (r === 0 ? field : asXlsx(ATTENDANCE_HEADER[i], field)))))
    expect(sheet.getRow(1).font?.bold).toBe(true)
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, xSplit: 2 })
    for (let r = 2; r <= cells.length; r++) {
      const name = sheet.getRow(r).getCell(2)
      expect(name.type).toBe(ExcelJS.ValueType.String)
      expect(name.formula).toBeUndefined()
      expect(sheet.getRow(r).getCell(ATTENDANCE_HEADER.length).type).toBe(ExcelJS.ValueType.Number)
    }
  })

  test('department_id and group_id filter the rows; both at once', async () => {
    const names = async (query: string) =>
      csvRows(await download(`/api/v1/admin/exports/attendance?month=${MONTH}&format=csv&${query}`))
        .slice(1)
        .map((row) => row[1])
    expect(await names('department_id=2')).toEqual(['cat'])
    expect(await names('group_id=2')).toEqual(['dan'])
    expect(await names('department_id=1&group_id=1')).toEqual(['ann', 'bob', 'eve'])
    expect(await names('department_id=2&group_id=2')).toEqual([])
  })

  test('a month with nobody hired yet is the header alone; another month’s dates are its own', async () => {
    const rows = csvRows(await download('/api/v1/admin/exports/attendance?month=2023-02&format=csv'))
    expect(rows).toEqual([['employee_no', 'name', 'department', ...Array.from({ length: 28 }, (_, i) => `2023-02-${String(i + 1).padStart(2, '0')}`), ...TOTAL_HEADERS]])
    const leap = csvRows(await download('/api/v1/admin/exports/attendance?month=2024-02&format=csv'))
    expect(leap[0][3 + 28]).toBe('2024-02-29')
  })

  test('in the middle of the month: days to come are empty and the totals still equal statistics at that moment', async () => {
    at('2024-10-16T12:00:00')
    try {
      const rows = csvRows(await download(`/api/v1/admin/exports/attendance?month=${MONTH}&format=csv`))
      for (const who of PEOPLE) expect({ who, ...totalsOf(rowOf(rows, who)) }).toEqual({ who, ...statisticsTotals(await statisticsOf(who)) })
      // the 21st is not past yet: bob's missed day is no absence
      expect(codesOf(rowOf(rows, 'bob'))[D(21)]).toBe('')
      expect(totalsOf(rowOf(rows, 'bob')).absent_days).toBe(0)
    } finally {
      at('2024-11-01T10:00:00')
    }
  })
})

const SALARY_HEADER = [
  'employee_no',
  'name',
  'department',
  'basic_salary',
  'seniority_pay',
  'performance_pay',
  'overtime_pay',
  'bonus',
  'allowance',
  'total_income',
  'attendance_deduction',
  'personal_insurance',
  'personal_tax',
  'housing_fund',
  'other_deductions',
  'total_deductions',
  'net_salary',
  'status',
  'payment_date',
]
const NUMERIC_SALARY = new Set(SALARY_HEADER.slice(3, 17))

describe('the salary register', () => {
  beforeAll(async () => {
    const salary = (employee_id: number, month: string, amounts: Record<string, unknown>) =>
      created('POST', '/api/v1/admin/salaries', { employee_id, month, ...amounts })
    await salary(ids.ann, MONTH, {
      basic_salary: 12000,
      performance_pay: 1500.5,
      allowance: 300,
      personal_insurance: 1260,
      personal_tax: 345.15,
      housing_fund: 840,
    })
    await salary(ids.bob, MONTH, { basic_salary: 0.1, bonus: 0.2 })
    await salary(ids.cat, MONTH, { basic_salary: 99999999.99, seniority_pay: 0.01, other_deductions: 0.07, status: '1', payment_date: '2024-10-31' })
    await salary(ids[INJECTIONS[0]], MONTH, { basic_salary: 1.1, personal_tax: 0.2 })
    await salary(ids.ann, '2024-09', { basic_salary: 5 })
  })

  const EXPECTED = [
    SALARY_HEADER,
    ['E001', 'ann', 'Operations', '12000.00', '0.00', '1500.50', '0.00', '0.00', '300.00', '13800.50', '0.00', '1260.00', '345.15', '840.00', '0.00', '2445.15', '11355.35', 'unconfirmed', ''],
    ['E002', 'bob', 'Operations', '0.10', '0.00', '0.00', '0.00', '0.20', '0.00', '0.30', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.30', 'unconfirmed', ''],
    ['E003', 'cat', 'Finance', '99999999.99', '0.01', '0.00', '0.00', '0.00', '0.00', '100000000.00', '0.00', '0.00', '0.00', '0.00', '0.07', '0.07', '99999999.93', 'paid', '2024-10-31'],
    ["'-007", `'${INJECTIONS[0]}`, 'R&D, "Labs"', '1.10', '0.00', '0.00', '0.00', '0.00', '0.00', '1.10', '0.00', '0.00', '0.20', '0.00', '0.00', '0.20', '0.90', 'unconfirmed', ''],
    // sums in fen: 1200000 + 10 + 9999999999 + 110 = 10001200119 → 100012001.19, and so on
    ['total', '', '', '100012001.19', '0.01', '1500.50', '0.00', '0.20', '300.00', '100013801.90', '0.00', '1260.00', '345.35', '840.00', '0.07', '2445.42', '100011356.48', '', ''],
  ]

  test('a CSV: one row per record of the month, every amount in yuan with 2 decimals, a last row of exact sums', async () => {
    const file = await download(`/api/v1/admin/exports/salaries?month=${MONTH}&format=csv`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="salaries-2024-10.csv"')
    expect(csvRows(file)).toEqual(EXPECTED)
  })

  test('the status in the language asked for', async () => {
    const rows = csvRows(await download(`/api/v1/admin/exports/salaries?month=${MONTH}&format=csv`, admin, { 'accept-language': 'zh' }))
    expect(rows.slice(1, 5).map((row) => row[17])).toEqual(['未确认', '未确认', '已发放', '未确认'])
  })

  test('an XLSX in the data layout with the same cells, amounts as numbers in a 2-decimal format, the sums bold', async () => {
    const file = await download(`/api/v1/admin/exports/salaries?month=${MONTH}&format=xlsx&layout=data`)
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="salaries-2024-10.xlsx"')
    const { sheet, rows } = await xlsxRows(file)
    expect(rows).toEqual(EXPECTED.map((row, r) => row.map((field, i) => (r === 0 ? field : field === '' ? null : NUMERIC_SALARY.has(SALARY_HEADER[i]) ? Number(field) : field))))
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('#,##0.00')
    expect(sheet.getRow(EXPECTED.length).font?.bold).toBe(true)
  })

  test('a month without records: the header and a row of zeros', async () => {
    const rows = csvRows(await download('/api/v1/admin/exports/salaries?month=2024-11&format=csv'))
    expect(rows).toEqual([SALARY_HEADER, ['total', '', '', ...SALARY_HEADER.slice(3, 17).map(() => '0.00'), '', '']])
  })
})

describe('formula injection, in both formats', () => {
  test('no text cell of either sheet starts with =, +, -, @, a tab or a CR; the names keep their text behind a quote', async () => {
    for (const path of ['attendance', 'salaries']) {
      const rows = csvRows(await download(`/api/v1/admin/exports/${path}?month=${MONTH}&format=csv`))
      for (const row of rows) for (const field of row) expect(/^[=+@\t\r]/.test(field) || (/^-/.test(field) && !/^-\d+(\.\d+)?$/.test(field))).toBe(false)
      const { rows: cells } = await xlsxRows(await download(`/api/v1/admin/exports/${path}?month=${MONTH}&format=xlsx`))
      for (const row of cells) for (const cell of row) if (typeof cell === 'string') expect(/^[=+\-@\t\r]/.test(cell)).toBe(false)
      for (const name of path === 'attendance' ? INJECTIONS : INJECTIONS.slice(0, 1)) {
        expect(rows.some((row) => row[1] === `'${name}`)).toBe(true)
        expect(cells.some((row) => row[1] === `'${name}`)).toBe(true)
      }
    }
  })
})

describe('refusals and the audit log', () => {
  const failure = (field: string) => expect.objectContaining({ code: 400, data: null, errors: [expect.objectContaining({ field })] })

  test('a bad month, format or filter is a 400 before anything is streamed, and leaves no audit entry', async () => {
    const before = (await adminReq('GET', '/api/v1/admin/audit-logs?resource=export')).body.data.total
    for (const [query, field] of [
      ['month=2024-13&format=csv', 'month'],
      ['month=2024-1&format=csv', 'month'],
      ['month=0000-01&format=csv', 'month'],
      ['format=csv', 'month'],
      ['month=2024-10&format=pdf', 'format'],
      ['month=2024-10', 'format'],
      ['month=2024-10&format=csv&department_id=99', 'department_id'],
      ['month=2024-10&format=csv&group_id=99', 'group_id'],
      ['month=2024-10&format=csv&department_id=abc', 'department_id'],
      ['month=2024-10&format=csv&group_id=0', 'group_id'],
    ]) {
      const reply = await adminReq('GET', `/api/v1/admin/exports/attendance?${query}`)
      expect({ query, status: reply.status }).toEqual({ query, status: 400 })
      expect(reply.body).toEqual(failure(field))
    }
    for (const query of ['month=2024-13&format=csv', 'month=2024-10&format=xls']) expect((await adminReq('GET', `/api/v1/admin/exports/salaries?${query}`)).status).toBe(400)
    expect((await adminReq('GET', '/api/v1/admin/audit-logs?resource=export')).body.data.total).toBe(before)
  })

  test('403 without the permission of the records (attendance) or of the salary list (salaries)', async () => {
    const nobody = await makeUser(t.app, admin, 'nobody')
    for (const path of ['attendance', 'salaries']) {
      const reply = await req(t.app, 'GET', `/api/v1/admin/exports/${path}?month=${MONTH}&format=csv`, { token: nobody.token })
      expect(reply.status).toBe(403)
    }
    expect((await adminReq('POST', '/api/v1/admin/roles', { name: 'records_reader' })).status).toBe(201)
    expect(
      (await adminReq('POST', '/api/v1/admin/roles/permissions/add', { role_name: 'records_reader', permission_name: 'attendance_records:read' })).status,
    ).toBe(200)
    const reader = await makeUser(t.app, admin, 'reader', ['records_reader'])
    expect((await download(`/api/v1/admin/exports/attendance?month=${MONTH}&format=csv`, reader.token)).status).toBe(200)
    const salaries = await req(t.app, 'GET', `/api/v1/admin/exports/salaries?month=${MONTH}&format=csv`, { token: reader.token })
    expect(salaries.status).toBe(403)
    expect(salaries.body.message).toContain('salaries:read')
  })

  test('HEAD answers the headers of the download (and its 400s) but exports nothing, so audits nothing', async () => {
    const count = async () => (await adminReq('GET', '/api/v1/admin/audit-logs?resource=export')).body.data.total
    const before = await count()
    const head = (query: string) =>
      t.app.handle(new Request(`http://localhost/api/v1/admin/exports/${query}`, { method: 'HEAD', headers: { authorization: `Bearer ${admin}` } }))
    const ok = await head(`attendance?month=${MONTH}&format=xlsx`)
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toBe(XLSX_TYPE)
    expect(ok.headers.get('content-disposition')).toBe('attachment; filename="attendance-2024-10.xlsx"')
    expect((await ok.arrayBuffer()).byteLength).toBe(0)
    expect((await head(`salaries?month=${MONTH}&format=csv`)).status).toBe(200)
    expect((await head(`attendance?month=${MONTH}&format=csv&group_id=99`)).status).toBe(400)
    expect(await count()).toBe(before)
  })

  test('every export leaves one audit entry: who, the month, format, filters and rows', async () => {
    const count = async () => (await adminReq('GET', '/api/v1/admin/audit-logs?resource=export')).body.data.total
    const before = await count()
    await download(`/api/v1/admin/exports/attendance?month=${MONTH}&format=xlsx&department_id=1&group_id=1`)
    await download(`/api/v1/admin/exports/salaries?month=${MONTH}&format=csv`)
    expect(await count()).toBe(before + 2)
    const [salaries, attendance] = (await adminReq('GET', '/api/v1/admin/audit-logs?resource=export&page_size=2')).body.data.list
    expect(attendance).toMatchObject({
      actor_id: 1,
      action: 'export.attendance',
      resource: 'export',
      resource_id: MONTH,
      before: null,
      after: { month: MONTH, format: 'xlsx', department_id: 1, group_id: 1, rows: 3 },
    })
    expect(salaries).toMatchObject({ action: 'export.salaries', resource_id: MONTH, after: { month: MONTH, format: 'csv', rows: 4 } })
  })
})

describe('streaming', () => {
  test('a download cut off half-way stops the export; the service goes on answering', async () => {
    for (const format of ['csv', 'xlsx']) {
      const response = await t.app.handle(
        new Request(`http://localhost/api/v1/admin/exports/attendance?month=${MONTH}&format=${format}`, { headers: { authorization: `Bearer ${admin}` } }),
      )
      const reader = response.body!.getReader()
      expect((await reader.read()).done).toBe(false)
      await reader.cancel()
    }
    expect(csvRows(await download(`/api/v1/admin/exports/salaries?month=${MONTH}&format=csv`)).length).toBe(6)
  })

  test('rows are produced as the body is read: an employee added after the first chunk is in the rest (CSV and XLSX)', async () => {
    const { db } = t.deps.database
    const now = t.clock.now()
    const many = Array.from({ length: 3000 }, (_, i) => ({ name: `Bulk ${i}`, employeeNo: `B${String(i).padStart(5, '0')}`, createdAt: now, updatedAt: now }))
    for (let i = 0; i < many.length; i += 500) await db.insert(employees).values(many.slice(i, i + 500))
    for (const format of ['csv', 'xlsx'] as const) {
      const response = await t.app.handle(
        new Request(`http://localhost/api/v1/admin/exports/attendance?month=${MONTH}&format=${format}&layout=data`, { headers: { authorization: `Bearer ${admin}` } }),
      )
      const reader = response.body!.getReader()
      const chunks: Uint8Array[] = []
      const first = await reader.read()
      chunks.push(first.value!)
      const late = `Late ${format}`
      await db.insert(employees).values({ name: late, employeeNo: `L-${format}`, createdAt: now, updatedAt: now })
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
      expect(chunks.length).toBeGreaterThan(2)
      const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
      let offset = 0
      for (const chunk of chunks) bytes.set(chunk, (offset += chunk.length) - chunk.length)
      const file = { status: 200, headers: response.headers, bytes }
      const names = format === 'csv' ? csvRows(file).map((row) => row[1]) : (await xlsxRows(file)).rows.map((row) => row[1])
      expect(names.length).toBe(1 + 9 + 3000 + (format === 'csv' ? 1 : 2))
      expect(names.at(-1)).toBe(late)
    }
  })
})
