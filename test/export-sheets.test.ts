import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { employees } from '../src/db/schema'
import { DATES, exportsFixture, MONTH, NOW, type ExportsFixture } from './exports-fixture'
import { req } from './helpers'

/*
 * CONTRACT §24, issue 27: the exports' two layouts. `layout=data` (and a CSV without `layout`) is
 * the file of §12 byte for byte: the golden files of test/fixtures/exports/ were written from the
 * fixture before the sheet layout existed. `layout=sheet` (an XLSX without `layout`) is a sheet to
 * print or hand over, in the language of Accept-Language. The fixture's October 2024 (see
 * test/exports-fixture.ts): 1–7 October holidays, Saturday the 12th a make-up workday, the group
 * works Monday to Friday; made on Friday 1 November 2024, 10:00 in Shanghai.
 */

/** The bytes as text, the byte-order mark kept. */
const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
const GOLDEN = join(import.meta.dir, 'fixtures', 'exports')
const golden = (kind: string, lang: string) => new Uint8Array(readFileSync(join(GOLDEN, `${kind}-${MONTH}.${lang}.csv`)))
const goldenRows = (kind: string, lang = 'en'): string[][] => parse(text(golden(kind, lang)).slice(1))

let f: ExportsFixture
beforeAll(async () => {
  f = await exportsFixture()
}, 60_000)
afterAll(() => f.t.close())

const get = (kind: string, query: string, lang = 'en') => f.download(`/api/v1/admin/exports/${kind}?month=${MONTH}&${query}`, { 'accept-language': lang })
const csvOf = (lines: (string | null)[][]) =>
  `\uFEFF${lines.map((cells) => `${cells.map((cell) => (cell === null ? '' : /[",]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')}\r\n`).join('')}`

async function workbookOf(bytes: Uint8Array) {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(bytes.buffer as ArrayBuffer)
  return workbook.worksheets[0]
}
/** A worksheet's rows as values (empty cells null), as wide as `width`. */
function valuesOf(sheet: ExcelJS.Worksheet, width: number) {
  const rows: ExcelJS.CellValue[][] = []
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push(Array.from({ length: width }, (_, i) => row.getCell(i + 1).value ?? null)))
  return rows
}

describe('layout=data is today’s file, byte for byte', () => {
  for (const kind of ['attendance', 'salaries'])
    for (const lang of ['en', 'zh'])
      test(`${kind} in ${lang}: with layout=data and without layout`, async () => {
        for (const query of ['format=csv&layout=data', 'format=csv']) {
          const file = await get(kind, query, lang)
          expect({ query, status: file.status, type: file.headers.get('content-type') }).toEqual({ query, status: 200, type: 'text/csv; charset=utf-8' })
          expect(text(file.bytes)).toBe(text(golden(kind, lang)))
          expect(file.bytes).toEqual(golden(kind, lang))
        }
      })
})

// ---------------------------------------------------------------- the attendance sheet

const HOLIDAY_DAYS = [1, 2, 3, 4, 5, 6, 7]
/** Days shaded: the holidays and the weekends but Saturday the 12th (a make-up workday). */
const SHADED_DAYS = [...HOLIDAY_DAYS, 13, 19, 20, 26, 27]
const WEEKDAYS_EN = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
const WEEKDAYS_ZH = ['一', '二', '三', '四', '五', '六', '日']
const weekdayRow = (names: string[], holiday: string, workday: string) =>
  DATES.map((date, i) => {
    const name = names[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]
    return HOLIDAY_DAYS.includes(i + 1) ? `${name} ${holiday}` : date === '2024-10-12' ? `${name} ${workday}` : name
  })

const WORDS = {
  en: {
    title: 'Attendance sheet · Acme · October 2024 · made 2024-11-01 10:00 (Asia/Shanghai)',
    header: ['Employee no.', 'Name', 'Department'],
    totals: ['Work days', 'Days attended', 'Late days', 'Late minutes', 'Early-leave days', 'Absent days', 'Leave days', 'Overtime hours', 'Hours worked', 'Leave hours'],
    weekdays: weekdayRow(WEEKDAYS_EN, 'H', 'W'),
    total: 'Total',
    legend: [
      ['Codes'],
      ['✓', 'Normal'],
      ['L', 'Late'],
      ['E', 'Left early'],
      ['A', 'Absent'],
      ['X', 'Exception (a clock-in or clock-out missing)'],
      ['V', 'Leave, a whole day'],
      ['½V', 'Leave, half a day'],
      ['H', 'Holiday'],
      ['(empty)', 'A day off, or a day still to come'],
      ['Under a date, H marks a holiday and W a make-up workday of the company calendar.'],
    ],
    shading: 'Shaded columns: holidays and rest days.',
  },
  zh: {
    title: '考勤表 · Acme · 2024年10月 · 制表时间 2024-11-01 10:00（Asia/Shanghai）',
    header: ['工号', '姓名', '部门'],
    totals: ['应出勤天数', '出勤天数', '迟到天数', '迟到分钟', '早退天数', '缺勤天数', '请假天数', '加班小时', '工作小时', '请假小时'],
    weekdays: weekdayRow(WEEKDAYS_ZH, '休', '班'),
    total: '合计',
    legend: [
      ['代码说明'],
      ['✓', '正常'],
      ['L', '迟到'],
      ['E', '早退'],
      ['A', '缺勤'],
      ['X', '异常（缺上班打卡或下班打卡）'],
      ['V', '请假（全天）'],
      ['½V', '请假（半天）'],
      ['H', '节假日'],
      ['（空白）', '休息日，或尚未到来的日期'],
      ['日期下方的“休”表示公司日历中的节假日，“班”表示调休上班日。'],
    ],
    shading: '有底色的列：节假日和休息日。',
  },
}
// §12's nine totals and the sheet's leave hours (CONTRACT §18)
const WIDTH = 3 + DATES.length + 10
const DAY_NUMBERS = DATES.map((date) => String(Number(date.slice(8))))
// the month's totals, by hand from the golden rows: 19+19+14+0 work days, 127.53+130.72+114.38 hours; no hourly leave
const TOTALS = [52, 47, 1, 20, 1, 2, 3.5, 1.5, 372.63, 0]
/** The data layout's rows with the sheet's own total after them: the fixture has no hourly leave. */
const sheetRows = () => goldenRows('attendance').slice(1).map((row) => [...row, '0'])
const padded = (cells: (string | null)[]) => [...cells, ...Array<null>(WIDTH - cells.length).fill(null)]

describe('the attendance sheet, layout=sheet', () => {
  for (const lang of ['en', 'zh'] as const)
    test(`a CSV in ${lang}, whole: the title, headers in words, the weekdays, the data rows, the totals, the legend`, async () => {
      const words = WORDS[lang]
      const file = await get('attendance', 'format=csv&layout=sheet', lang)
      expect(file.status).toBe(200)
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="attendance-2024-10.csv"')
      expect(text(file.bytes)).toBe(
        csvOf([
          padded([words.title]),
          [...words.header, ...DAY_NUMBERS, ...words.totals],
          [null, null, null, ...words.weekdays, ...Array(10).fill(null)],
          // the same rows as the data layout, and the leave hours
          ...sheetRows(),
          [words.total, ...Array(2 + DATES.length).fill(null), ...TOTALS.map(String)],
          padded([]),
          // CSV cannot shade: the legend says nothing of shading
          ...words.legend.map(padded),
        ]),
      )
    })

  for (const lang of ['en', 'zh'] as const)
    test(`an XLSX (the default layout) in ${lang}: title, weekday row, legend, totals, shading, printing, frozen panes`, async () => {
      const words = WORDS[lang]
      const file = await get('attendance', 'format=xlsx', lang)
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="attendance-2024-10.xlsx"')
      const sheet = await workbookOf(file.bytes)
      expect(sheet.name).toBe(lang === 'en' ? 'Attendance 2024-10' : '考勤表 2024-10')
      const data = sheetRows().map((row) => row.map((cell, i) => (cell === '' ? null : i >= 3 + DATES.length ? Number(cell) : cell)))
      expect(valuesOf(sheet, WIDTH)).toEqual([
        padded([words.title]),
        [...words.header, ...DAY_NUMBERS, ...words.totals],
        [null, null, null, ...words.weekdays, ...Array(10).fill(null)],
        ...data,
        [words.total, ...Array(2 + DATES.length).fill(null), ...TOTALS],
        padded([]),
        ...[...words.legend, [words.shading]].map(padded),
      ])
      expect(sheet.getCell('A1').font).toMatchObject({ bold: true, size: 14 })
      expect(sheet.getRow(2).font?.bold).toBe(true)
      expect(sheet.getRow(4 + data.length).font?.bold).toBe(true)

      // holidays and rest days shaded from the header down to the totals; work days (the make-up Saturday too) not
      for (let day = 1; day <= DATES.length; day++)
        for (let row = 2; row <= 4 + data.length; row++) {
          const fill = sheet.getRow(row).getCell(3 + day).fill as ExcelJS.FillPattern | undefined
          const shaded = fill?.type === 'pattern' && fill.pattern === 'solid'
          expect({ day, row, shaded }).toEqual({ day, row, shaded: SHADED_DAYS.includes(day) })
        }
      expect(sheet.getCell('D3').fill).toEqual({ type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7E6E6' } })
      expect(sheet.getRow(4).getCell(4).alignment).toMatchObject({ horizontal: 'center' })

      // printing: landscape, one page wide, as long as it takes, the header rows on every page
      expect(sheet.pageSetup).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9, printTitlesRow: '2:3' })
      // on screen: frozen below the header rows and after the name
      expect(sheet.views).toEqual([expect.objectContaining({ state: 'frozen', ySplit: 3, xSplit: 2 })])
      expect(sheet.columns.map((column) => column.width)).toEqual([10, 14, 14, ...DATES.map(() => 6), ...Array(10).fill(9)])
    })

  test('the weekday row and the shading follow the rules’ work days: a group working Monday to Saturday shades only Sundays', async () => {
    const { t, admin } = f
    const set = (work_days: string) => req(t.app, 'PUT', '/api/v1/admin/attendance/rules/1', { token: admin, body: { work_days } })
    expect((await set('1,2,3,4,5,6')).status).toBe(200)
    try {
      const sheet = await workbookOf((await get('attendance', 'format=xlsx')).bytes)
      const shaded = DATES.map((_, i) => (sheet.getRow(3).getCell(4 + i).fill as ExcelJS.FillPattern | undefined)?.pattern === 'solid')
      expect(DATES.filter((_, i) => shaded[i]).map((date) => Number(date.slice(8)))).toEqual([...HOLIDAY_DAYS, 13, 20, 27])
    } finally {
      expect((await set('1,2,3,4,5')).status).toBe(200)
    }
  })
})

// ---------------------------------------------------------------- the salary register

const SALARY = {
  en: {
    title: 'Salary register · Acme · October 2024 · made 2024-11-01 10:00 (Asia/Shanghai)',
    header: [
      'Employee no.',
      'Name',
      'Department',
      'Basic salary',
      'Seniority pay',
      'Performance pay',
      'Overtime pay',
      'Bonus',
      'Allowance',
      'Total income',
      'Attendance deduction',
      'Social insurance (employee)',
      'Income tax',
      'Housing fund',
      'Other deductions',
      'Total deductions',
      'Net pay',
      'Status',
      'Paid on',
    ],
    total: 'Total',
  },
  zh: {
    title: '工资表 · Acme · 2024年10月 · 制表时间 2024-11-01 10:00（Asia/Shanghai）',
    header: [
      '工号',
      '姓名',
      '部门',
      '基本工资',
      '工龄工资',
      '绩效工资',
      '加班费',
      '奖金',
      '津贴',
      '应发合计',
      '考勤扣款',
      '个人社保',
      '个人所得税',
      '住房公积金',
      '其他扣款',
      '扣款合计',
      '实发工资',
      '状态',
      '发放日期',
    ],
    total: '合计',
  },
}

describe('the salary register, layout=sheet', () => {
  for (const lang of ['en', 'zh'] as const)
    test(`a CSV in ${lang}, whole: the title, headers in words, the rows, the totals row`, async () => {
      const words = SALARY[lang]
      const rows = goldenRows('salaries', lang)
      const file = await get('salaries', 'format=csv&layout=sheet', lang)
      expect(text(file.bytes)).toBe(
        csvOf([[words.title, ...Array(18).fill(null)], words.header, ...rows.slice(1, -1), [words.total, ...rows.at(-1)!.slice(1)]]),
      )
    })

  for (const lang of ['en', 'zh'] as const)
    test(`an XLSX in ${lang}: the title, the amounts as numbers in yuan, a bold totals row, printing and frozen panes`, async () => {
      const words = SALARY[lang]
      const sheet = await workbookOf((await get('salaries', 'format=xlsx', lang)).bytes)
      expect(sheet.name).toBe(lang === 'en' ? 'Salaries 2024-10' : '工资表 2024-10')
      const rows = goldenRows('salaries', lang).map((row) => row.map((cell, i) => (cell === '' ? null : i >= 3 && i < 17 ? Number(cell) : cell)))
      expect(valuesOf(sheet, 19)).toEqual([[words.title, ...Array(18).fill(null)], words.header, ...rows.slice(1, -1), [words.total, ...rows.at(-1)!.slice(1)]])
      expect(rows.at(-1)!.slice(3, 17)).toEqual([26300, 200, 1500.5, 206.9, 1000.01, 450.5, 29657.91, 450.45, 2240, 345.15, 840, 12.3, 3887.9, 25770.01])
      expect(sheet.getRow(6).font?.bold).toBe(true)
      expect(sheet.getCell('D3').numFmt).toBe('#,##0.00')
      expect(sheet.pageSetup).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, printTitlesRow: '2:2' })
      expect(sheet.views).toEqual([expect.objectContaining({ state: 'frozen', ySplit: 2, xSplit: 2 })])
    })
})

// ---------------------------------------------------------------- the parameter

describe('the layout parameter', () => {
  test('an unknown layout is a 400 in the language asked for, before anything is exported', async () => {
    for (const kind of ['attendance', 'salaries']) {
      const en = await req(f.t.app, 'GET', `/api/v1/admin/exports/${kind}?month=${MONTH}&format=csv&layout=pretty`, { token: f.admin })
      expect(en.body).toEqual({
        code: 400,
        message: 'Invalid request: layout must be data or sheet',
        data: null,
        timestamp: NOW,
        errors: [{ field: 'layout', message: 'must be data or sheet' }],
      })
      const zh = await req(f.t.app, 'GET', `/api/v1/admin/exports/${kind}?month=${MONTH}&format=csv&layout=pretty`, {
        token: f.admin,
        headers: { 'accept-language': 'zh' },
      })
      expect(zh.body).toEqual({
        code: 400,
        message: '请求无效：layout：必须是 data 或 sheet',
        data: null,
        timestamp: NOW,
        errors: [{ field: 'layout', message: '必须是 data 或 sheet' }],
      })
    }
  })

  test('the exports’ own refusals in Chinese: a month that does not exist, a department that does not exist', async () => {
    const zh = (query: string) => req(f.t.app, 'GET', `/api/v1/admin/exports/attendance?${query}`, { token: f.admin, headers: { 'accept-language': 'zh' } })
    expect((await zh('month=0000-01&format=csv')).body).toEqual({
      code: 400,
      message: 'month：“0000-01”不是真实存在的月份',
      data: null,
      timestamp: NOW,
      errors: [{ field: 'month', message: '“0000-01”不是真实存在的月份' }],
    })
    expect((await zh(`month=${MONTH}&format=xlsx&department_id=99&group_id=98`)).body).toEqual({
      code: 400,
      message: 'department_id：部门 99 不存在；group_id：考勤组 98 不存在',
      data: null,
      timestamp: NOW,
      errors: [
        { field: 'department_id', message: '部门 99 不存在' },
        { field: 'group_id', message: '考勤组 98 不存在' },
      ],
    })
    const en = await req(f.t.app, 'GET', `/api/v1/admin/exports/attendance?month=${MONTH}&format=csv&department_id=99`, { token: f.admin })
    expect(en.body.message).toBe('department_id: department 99 does not exist')
  })

  test('the audit entry names the layout; HEAD answers the sheet’s headers and audits nothing', async () => {
    const entries = async () => (await req(f.t.app, 'GET', '/api/v1/admin/audit-logs?resource=export&page_size=1', { token: f.admin })).body.data
    const before = (await entries()).total
    const head = await f.t.app.handle(
      new Request(`http://localhost/api/v1/admin/exports/attendance?month=${MONTH}&format=xlsx&layout=sheet`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${f.admin}` },
      }),
    )
    expect(head.status).toBe(200)
    expect(head.headers.get('content-disposition')).toBe('attachment; filename="attendance-2024-10.xlsx"')
    expect((await entries()).total).toBe(before)
    await get('salaries', 'format=csv&layout=sheet')
    expect((await entries()).list[0]).toMatchObject({ action: 'export.salaries', after: { month: MONTH, format: 'csv', layout: 'sheet', rows: 3 } })
    await get('attendance', 'format=xlsx&group_id=1')
    expect((await entries()).list[0]).toMatchObject({
      action: 'export.attendance',
      after: { month: MONTH, format: 'xlsx', layout: 'sheet', group_id: 1, rows: 3 },
    })
  })
})

// ---------------------------------------------------------------- people of several companies, and many rows

describe('a sheet of several companies’ people, and of many', () => {
  beforeAll(async () => {
    const { t, admin } = f
    const created = async (path: string, body: unknown) => {
      const reply = await req(t.app, 'POST', path, { token: admin, body })
      if (reply.status !== 201 && reply.status !== 200) throw new Error(`${path}: ${JSON.stringify(reply.body)}`)
      return reply.body.data
    }
    const beta = await created('/api/v1/admin/companies', { name: 'Beta', timezone: 'Europe/Berlin' })
    const depot = await created('/api/v1/admin/attendance/groups', { name: 'Depot', company_id: beta.id })
    const ben = await created('/api/v1/admin/employees', { name: 'Ben', employee_no: 'B001', hire_date: '2024-01-02' })
    await created(`/api/v1/admin/attendance/groups/${depot.id}/employees`, { employee_ids: [ben.id] })
  })

  test('"All companies" in the service’s zone; only what every company marks a holiday is one; filtered to a group, its company again', async () => {
    const sheet = await workbookOf((await get('attendance', 'format=xlsx')).bytes)
    expect(sheet.getCell('A1').value).toBe('Attendance sheet · All companies · October 2024 · made 2024-11-01 02:00 (UTC)')
    // Beta has no calendar: 1–7 October are no holiday of both; Depot has no rule, Office works Monday to Friday
    expect(valuesOf(sheet, WIDTH)[2].slice(3, 3 + 7)).toEqual(['Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun', 'Mon'])
    const shaded = DATES.filter((_, i) => (sheet.getRow(3).getCell(4 + i).fill as ExcelJS.FillPattern | undefined)?.pattern === 'solid')
    expect(shaded.map((date) => Number(date.slice(8)))).toEqual([5, 6, 12, 13, 19, 20, 26, 27])

    const zh = await workbookOf((await get('attendance', 'format=xlsx&group_id=2', 'zh')).bytes)
    expect(zh.getCell('A1').value).toBe('考勤表 · Beta · 2024年10月 · 制表时间 2024-11-01 03:00（Europe/Berlin）')
    const salaries = await get('salaries', 'format=csv&layout=sheet', 'zh')
    expect(text(salaries.bytes).split('\r\n')[0]).toStartWith('\uFEFF工资表 · Acme · 2024年10月')
  })

  test('the sheet streams as the data does: rows are produced as the body is read, the totals and legend come after the last', async () => {
    const { db } = f.t.deps.database
    const now = f.t.clock.now()
    const many = Array.from({ length: 3000 }, (_, i) => ({ name: `Bulk ${i}`, employeeNo: `M${String(i).padStart(5, '0')}`, createdAt: now, updatedAt: now }))
    for (let i = 0; i < many.length; i += 500) await db.insert(employees).values(many.slice(i, i + 500))
    for (const format of ['csv', 'xlsx'] as const) {
      const response = await f.t.app.handle(
        new Request(`http://localhost/api/v1/admin/exports/attendance?month=${MONTH}&format=${format}&layout=sheet`, {
          headers: { authorization: `Bearer ${f.admin}` },
        }),
      )
      const reader = response.body!.getReader()
      const chunks: Uint8Array[] = [(await reader.read()).value!]
      const late = `Late ${format}`
      await db.insert(employees).values({ name: late, employeeNo: `L-${format}`, createdAt: now, updatedAt: now })
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
      expect(chunks.length).toBeGreaterThan(2)
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer())
      const rows: unknown[][] = format === 'csv' ? parse(text(bytes).slice(1)) : valuesOf(await workbookOf(bytes), WIDTH)
      const total = rows.findIndex((row) => row[0] === 'Total')
      // the title, two header rows, the fixture's 5 people, 3000, the late ones; then the totals, an empty row and the legend
      expect(total).toBe(3 + 5 + 3000 + (format === 'csv' ? 1 : 2))
      expect(rows[total - 1][1]).toBe(late)
      expect(rows[total][3 + DATES.length]).toBe(format === 'csv' ? '52' : 52)
      expect(rows.length - total).toBe(1 + 1 + 11 + (format === 'xlsx' ? 1 : 0))
    }
  }, 60_000)
})
