import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count, gt } from 'drizzle-orm'
import { auditLogs, employees, users } from '../src/db/schema'
import {
  errorBody,
  invalidBody,
  login,
  loginAdmin,
  makeUser,
  NOW,
  okBody,
  replyOf,
  req,
  startApp,
  tableRows,
  type Reply,
  type TestApp,
} from './helpers'

/*
 * POST /api/v1/admin/employees/import (CONTRACT §12): a CSV file of employees, checked row by row
 * by the rules of creating one, all problems at once, written all or none.
 */

const PATH = '/api/v1/admin/employees/import'
const MiB = 1024 * 1024

let t: TestApp
let admin: string

/** The employee made in beforeAll: number E-100, account "taken.user", employee id 1. */
const BOSS_ID = 1

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
  for (const [path, body] of [
    ['/api/v1/admin/departments', { name: 'Engineering' }],
    ['/api/v1/admin/departments', { name: 'Sales' }],
    ['/api/v1/admin/companies', { name: 'Acme' }],
    ['/api/v1/admin/employees', { name: 'The Boss', employee_no: 'E-100', username: 'taken.user', password: 'taken-password-1' }],
  ] as const) {
    const reply = await req(t.app, 'POST', path, { token: admin, body })
    if (reply.status !== 201) throw new Error(JSON.stringify(reply.body))
  }
})

afterAll(() => t.close())

/** Lines of a CSV file, each ended with CRLF as RFC 4180 writes them. */
const csv = (...lines: string[]) => lines.map((line) => `${line}\r\n`).join('')

interface ImportOptions {
  /** the query's dry_run; null leaves it out */
  dryRun?: string | null
  token?: string
  field?: string
  /** sent as Accept-Language */
  language?: string
}

function importRequest(file: string | Uint8Array, { dryRun = 'false', token = admin, field = 'file', language }: ImportOptions = {}): Request {
  const form = new FormData()
  form.append(field, new File([file], 'employees.csv', { type: 'text/csv' }))
  const query = dryRun === null ? '' : `?dry_run=${dryRun}`
  const headers = { authorization: `Bearer ${token}`, ...(language ? { 'accept-language': language } : {}) }
  return new Request(`http://localhost${PATH}${query}`, { method: 'POST', body: form, headers })
}

const importFile = async (file: string | Uint8Array, options: ImportOptions = {}): Promise<Reply> =>
  replyOf(await t.app.handle(importRequest(file, options)))

/** The 400 of a file with problems: the message names the count and the first one. */
function refused(problems: { row?: number; field: string; message: string }[]) {
  const rows = new Set(problems.map((problem) => problem.row)).size
  const [first] = problems
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}${rows > 1 ? ` in ${rows} rows` : ''}`
  return errorBody(400, `The file has ${count}; nothing was imported. Row ${first.row}, ${first.field}: ${first.message}`, { errors: problems })
}

/** A problem of the file as a whole, answered before any row is looked at. */
const fileRefused = (message: string, row?: number) =>
  errorBody(400, message, { errors: [{ ...(row === undefined ? {} : { row }), field: 'file', message }] })

/** An employee as the API shows it, stamped at the frozen time. */
const employee = (fields: { id: number; name: string } & Record<string, unknown>) => ({
  employee_no: null,
  phone: null,
  email: null,
  department_id: null,
  department: null,
  company_id: null,
  position: null,
  hire_date: null,
  left_on: null,
  work_start_date: null,
  status: 1,
  user_id: null,
  attendance_group_id: null,
  manager_id: null,
  created_at: NOW,
  updated_at: NOW,
  ...fields,
})

const allEmployees = async () => (await req(t.app, 'GET', '/api/v1/admin/employees?page_size=100', { token: admin })).body.data.list
const counts = async () => ({
  employees: (await t.deps.database.db.select({ n: count() }).from(employees))[0].n,
  users: (await t.deps.database.db.select({ n: count() }).from(users))[0].n,
})
const lastAuditId = async () => (await t.deps.database.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).at(-1)?.id ?? 0
const auditSince = (id: number) => t.deps.database.db.select().from(auditLogs).where(gt(auditLogs.id, id)).orderBy(asc(auditLogs.id))

const ENGINEERING = { id: 1, name: 'Engineering' }
const SALES = { id: 2, name: 'Sales' }
const BOSS = employee({ id: BOSS_ID, name: 'The Boss', employee_no: 'E-100', user_id: 2 })

describe('a good file', () => {
  test('every field, department by name, RFC 4180 quoting, a BOM: all rows created, accounts sign in with their passwords', async () => {
    const auditBefore = await lastAuditId()
    const file =
      '\uFEFF' +
      csv(
        'Name,Employee No,phone,EMAIL,department,company_id,position,hire-date,status,manager_id,username,password',
        `Ann Lee,E-001,+86 138 0000 0001,ann@acme.test, engineering ,1,Engineer,2024-01-02,1,${BOSS_ID},ann.lee,ann-password-1`,
        '"Lee, Bo",E-002,,,SALES,,"Sales ""lead""",,0,,,',
        '  Cai Ming  ,,,,,,"Desk 3\nRoom 12, north wing",2023-12-31,,,cai,  spaced password  ',
      )
    const reply = await importFile(file)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ created: 3, errors: [] }, '3 employees imported'))

    const ann = employee({
      id: 2,
      name: 'Ann Lee',
      employee_no: 'E-001',
      phone: '+86 138 0000 0001',
      email: 'ann@acme.test',
      department_id: 1,
      department: ENGINEERING,
      company_id: 1,
      position: 'Engineer',
      hire_date: '2024-01-02',
      user_id: 3,
      manager_id: BOSS_ID,
    })
    const lee = employee({ id: 3, name: 'Lee, Bo', employee_no: 'E-002', department_id: 2, department: SALES, position: 'Sales "lead"', status: 0 })
    const cai = employee({ id: 4, name: 'Cai Ming', position: 'Desk 3\nRoom 12, north wing', hire_date: '2023-12-31', user_id: 4 })
    expect(await allEmployees()).toEqual([BOSS, ann, lee, cai])

    // the accounts: role employee, named as their employee, signing in with the password as written (not trimmed)
    const annToken = await login(t.app, 'ann.lee', 'ann-password-1')
    const me = await req(t.app, 'GET', '/api/v1/auth/me', { token: annToken })
    expect(me.body.data).toMatchObject({
      user: { id: 3, username: 'ann.lee', name: 'Ann Lee', roles: ['employee'] },
      employee: { id: 2, employee_no: 'E-001', name: 'Ann Lee' },
    })
    expect(await login(t.app, 'cai', '  spaced password  ')).toBeString()
    const failed = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'cai', password: 'spaced password' } })
    expect(failed.status).toBe(401)

    // audited as creating each would be: the account's role, then the employee, row by row
    const entries = (await auditSince(auditBefore)).filter((entry) => entry.action !== 'auth.login' && entry.action !== 'auth.login.failed')
    expect(entries.map(({ actorId, action, resource, resourceId, before, after, createdAt }) => ({ actorId, action, resource, resourceId, before, after, createdAt }))).toEqual([
      { actorId: 1, action: 'role.assign', resource: 'user', resourceId: '3', before: { roles: [] }, after: { roles: ['employee'] }, createdAt: new Date(NOW) },
      { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: '2', before: null, after: ann, createdAt: new Date(NOW) },
      { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: '3', before: null, after: lee, createdAt: new Date(NOW) },
      { actorId: 1, action: 'role.assign', resource: 'user', resourceId: '4', before: { roles: [] }, after: { roles: ['employee'] }, createdAt: new Date(NOW) },
      { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: '4', before: null, after: cai, createdAt: new Date(NOW) },
    ])
  })

  test('a dry run checks the same and writes nothing, not even an audit entry', async () => {
    const before = await tableRows(t)
    const file = csv('name,employee_no,department,username,password', 'Dana Wu,E-003,Sales,dana,dana-password-1', 'Eli Ho,E-004,,,')
    const reply = await importFile(file, { dryRun: 'true' })
    expect(reply.body).toEqual(okBody({ created: 2, errors: [] }, 'The file is fine: 2 employees would be created'))
    expect((await importFile(file, { dryRun: 'true', language: 'zh' })).body).toEqual(okBody({ created: 2, errors: [] }, '文件检查通过：将创建 2 名员工'))
    expect(await tableRows(t)).toEqual(before)

    // and refuses what the import would refuse
    const taken = await importFile(csv('name,employee_no', 'Again,E-001'), { dryRun: 'true' })
    expect(taken.body).toEqual(refused([{ row: 2, field: 'employee_no', message: 'Employee number "E-001" is already in use' }]))
    expect(await tableRows(t)).toEqual(before)
  })

  test('blank rows are skipped but keep their numbers; a header may have unnamed empty columns; LF line ends do', async () => {
    const file = 'name,employee_no,\n\nFay Xu,E-005,\n,,\nGus Ma,E-006,\n'
    expect((await importFile(file, { dryRun: 'true' })).body).toEqual(okBody({ created: 2, errors: [] }, 'The file is fine: 2 employees would be created'))
    const bad = await importFile('name,email\n\n\nFay Xu,nope\n')
    expect(bad.body).toEqual(refused([{ row: 4, field: 'email', message: 'must be an e-mail address of at most 254 characters' }]))
  })
})

describe('a file with problems: every one at once, nothing written', () => {
  test('problems in several rows and columns are listed by row, then by column', async () => {
    const before = await tableRows(t)
    const file = csv(
      'name,employee_no,email,phone,department,company_id,hire_date,status,manager_id,username,password',
      'Good Row,E-010,,,,,,,,,',
      ',E-011,not-an-email,,,,,,,,',
      'Bad Date,E-012,,12,Marketing,9,2024-02-30,2,99,,',
      'No Pass,E-013,,,,,,,,nopass,',
      'Short,E-014,,,,,,,,shorty,short',
      'Odd User,E-015,,,,,not-a-date,yes,x,-x,long-enough-1',
    )
    const reply = await importFile(file)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      refused([
        { row: 3, field: 'name', message: 'is required' },
        { row: 3, field: 'email', message: 'must be an e-mail address of at most 254 characters' },
        { row: 4, field: 'phone', message: 'must be 3 to 32 digits, spaces, +, -, ( or )' },
        { row: 4, field: 'department', message: 'no department is named "Marketing" (names are compared ignoring case and surrounding spaces)' },
        { row: 4, field: 'company_id', message: 'company 9 does not exist' },
        { row: 4, field: 'hire_date', message: 'is not a real date' },
        { row: 4, field: 'status', message: 'must be 0 or 1' },
        { row: 4, field: 'manager_id', message: 'names employee 99, which does not exist' },
        { row: 5, field: 'password', message: 'is required with the other' },
        { row: 6, field: 'password', message: 'must be at least 8 characters long' },
        { row: 7, field: 'hire_date', message: 'must be a date written YYYY-MM-DD' },
        { row: 7, field: 'status', message: 'must be 0 or 1' },
        { row: 7, field: 'manager_id', message: 'must be a positive whole number' },
        { row: 7, field: 'username', message: 'must be 3 to 64 letters, digits, "_", ".", "@" or "-", starting with a letter or digit' },
      ]),
    )
    expect(await tableRows(t)).toEqual(before)
  })

  test('duplicates within the file (each later row names the first) and against the database', async () => {
    const before = await tableRows(t)
    const file = csv(
      'name,employee_no,username,password',
      'One,E-100,,',
      'Two,E-020,TAKEN.USER,password-two',
      'Three,E-020,,',
      'Four,E-021,dup.user,password-four',
      'Five, E-021 ,Dup.User,password-five',
      'Six,E-001,ann.lee,password-six',
    )
    expect((await importFile(file)).body).toEqual(
      refused([
        { row: 2, field: 'employee_no', message: 'Employee number "E-100" is already in use' },
        { row: 3, field: 'username', message: 'The username "TAKEN.USER" is already taken (usernames are unique ignoring case)' },
        { row: 4, field: 'employee_no', message: '"E-020" is also in row 3' },
        { row: 6, field: 'employee_no', message: '"E-021" is also in row 5' },
        { row: 6, field: 'username', message: '"Dup.User" is also in row 5 (usernames are unique ignoring case)' },
        { row: 7, field: 'employee_no', message: 'Employee number "E-001" is already in use' },
        { row: 7, field: 'username', message: 'The username "ann.lee" is already taken (usernames are unique ignoring case)' },
      ]),
    )
    // the same file in Chinese: the message and every row's problem
    expect((await importFile(file, { language: 'zh' })).body).toEqual(
      errorBody(400, '文件中的 5 行共有 7 处问题，未导入任何数据。第 2 行，employee_no：工号“E-100”已被使用', {
        errors: [
          { row: 2, field: 'employee_no', message: '工号“E-100”已被使用' },
          { row: 3, field: 'username', message: '用户名“TAKEN.USER”已被使用（用户名不区分大小写）' },
          { row: 4, field: 'employee_no', message: '“E-020”与第 3 行重复' },
          { row: 6, field: 'employee_no', message: '“E-021”与第 5 行重复' },
          { row: 6, field: 'username', message: '“Dup.User”与第 5 行重复（用户名不区分大小写，不能重复）' },
          { row: 7, field: 'employee_no', message: '工号“E-001”已被使用' },
          { row: 7, field: 'username', message: '用户名“ann.lee”已被使用（用户名不区分大小写）' },
        ],
      }),
    )
    expect(await tableRows(t)).toEqual(before)
  })

  test('rows with too few or too many cells', async () => {
    const file = csv('name,employee_no,email', 'Hal,E-030', 'Ivy,E-031,ivy@acme.test,Sales, North', 'Jo,E-032,,')
    expect((await importFile(file)).body).toEqual(
      refused([
        { row: 2, field: 'file', message: 'has 2 cells but the header has 3: add the missing commas' },
        { row: 3, field: 'file', message: 'has 5 cells but the header has 3: quote a cell that holds a comma ("Sales, North")' },
      ]),
    )
    expect((await importFile(file, { language: 'zh' })).body).toEqual(
      errorBody(400, '文件中的 2 行共有 2 处问题，未导入任何数据。第 2 行，file：有 2 个单元格，但表头有 3 个：请补上缺少的逗号', {
        errors: [
          { row: 2, field: 'file', message: '有 2 个单元格，但表头有 3 个：请补上缺少的逗号' },
          { row: 3, field: 'file', message: '有 5 个单元格，但表头有 3 个：含逗号的单元格请加引号（"Sales, North"）' },
        ],
      }),
    )
  })

  test('the header: unknown, repeated and missing columns, columns not imported, an unnamed column with values', async () => {
    const wrong = await importFile(csv('Name,Dept,user_id,NAME,,email', 'A,b,3,c,d,'))
    expect(wrong.body).toEqual(
      refused([
        {
          row: 1,
          field: 'Dept',
          message:
            'column B is not a column of the import; the columns are name, employee_no, phone, email, department, company_id, position, hire_date, work_start_date, status, manager_id, manager_employee_no, username, password',
        },
        {
          row: 1,
          field: 'user_id',
          message:
            'column C is not imported: an import creates new accounts (username and password); link an existing account with POST /api/v1/admin/employees/{id}/account',
        },
        { row: 1, field: 'name', message: 'is the name of columns A and D; keep one' },
        { row: 1, field: 'file', message: 'column E has no name in the header, but row 2 has a value in it; name the column or delete it' },
      ]),
    )
    expect((await importFile(csv('Name,Dept,user_id,NAME,,email', 'A,b,3,c,d,'), { language: 'zh' })).body.errors).toEqual([
      {
        row: 1,
        field: 'Dept',
        message:
          'B 列不是可导入的列；可导入的列为 name, employee_no, phone, email, department, company_id, position, hire_date, work_start_date, status, manager_id, manager_employee_no, username, password',
      },
      {
        row: 1,
        field: 'user_id',
        message: 'C 列不导入：导入只会创建新账号（username 和 password）；关联现有账号请用 POST /api/v1/admin/employees/{id}/account',
      },
      { row: 1, field: 'name', message: '同时是 A 列和 D 列的列名；请只保留一列' },
      { row: 1, field: 'file', message: 'E 列在表头中没有列名，但第 2 行在该列有值；请填写列名或删除该列' },
    ])
    const noName = await importFile(csv('employee_no,department_id', 'E-1,1'))
    expect(noName.body).toEqual(
      refused([
        { row: 1, field: 'department_id', message: 'column B is not imported: give the department by name, in a column "department"' },
        { row: 1, field: 'name', message: 'the header has no column "name"; every employee needs one' },
      ]),
    )
    const semicolons = await importFile(csv('name;employee_no', 'Ann;E-1'))
    expect(semicolons.body).toEqual(
      errorBody(400, 'The file separates its cells with semicolons; save it as "CSV UTF-8 (comma delimited)", with commas', {
        errors: [{ row: 1, field: 'file', message: 'separates cells with semicolons, not commas' }],
      }),
    )
    expect((await importFile(csv('name;employee_no', 'Ann;E-1'), { language: 'zh' })).body).toEqual(
      errorBody(400, '文件用分号分隔单元格；请另存为“CSV UTF-8（逗号分隔）”，用逗号分隔', {
        errors: [{ row: 1, field: 'file', message: '用分号分隔单元格，而不是逗号' }],
      }),
    )
    expect((await importFile('\uFEFFname,employee_no\r\n', { language: 'zh' })).body).toEqual(
      errorBody(400, '文件只有表头，没有员工；请在表头下方为每位员工添加一行', {
        errors: [{ row: 1, field: 'file', message: '文件只有表头，没有员工；请在表头下方为每位员工添加一行' }],
      }),
    )
  })

  test('files that are not UTF-8 CSV text, or hold nothing to import', async () => {
    const gbk = new Uint8Array([...new TextEncoder().encode('name\n'), 0xd5, 0xc5, 0xc8, 0xfd, 0x0a]) // 张三 in GBK
    const utf16 = new Uint8Array([0xff, 0xfe, 0x6e, 0x00, 0x61, 0x00])
    const xlsx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00])
    const cases: [string, string | Uint8Array, unknown][] = [
      ['empty', '', fileRefused('The file is empty; send a CSV file whose first row names the columns')],
      ['blank rows only', '\r\n,,\r\n\r\n', fileRefused('The file has no rows, only blank ones; its first row must name the columns (name, employee_no, ...)')],
      ['a header alone', '\uFEFFname,employee_no\r\n', fileRefused('The file has a header but no employees; add one row per employee below it', 1)],
      [
        'GBK',
        gbk,
        fileRefused(
          'The file is not UTF-8 text (it may be in a regional encoding such as GBK or Windows-1252); save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"',
        ),
      ],
      ['UTF-16', utf16, fileRefused('The file is UTF-16 text, not UTF-8; save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"')],
      [
        'a workbook',
        xlsx,
        fileRefused('The file is a workbook (.xlsx or .ods), not CSV; save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"'),
      ],
      ['NUL', 'name\nA\u0000B\n', fileRefused('The file contains the NUL character, so it is not a text file; send a CSV file')],
      [
        'an unclosed quote',
        csv('name,position', 'Ann,Engineer', '"Ben,Sales', 'Cy,Ops'),
        fileRefused('The file is not valid CSV at row 3: a cell opens a double quote that is never closed; close it, or double a quote that is part of the text ("")', 3),
      ],
      [
        'a quote inside an unquoted cell',
        csv('name,position', 'Ann,Engineer', 'Ben,The "best"'),
        fileRefused(
          'The file is not valid CSV at row 3: a cell that is not quoted contains a double quote; quote the whole cell and write the quote twice ("say ""hi""")',
          3,
        ),
      ],
      [
        'text after a closing quote',
        csv('name', '"Ann" Lee'),
        fileRefused('The file is not valid CSV at row 2: a quoted cell has text after its closing quote; a quote inside a quoted cell is written twice ("")', 2),
      ],
    ]
    const before = await tableRows(t)
    for (const [what, file, body] of cases) expect({ what, body: (await importFile(file)).body }).toEqual({ what, body })
    expect(await tableRows(t)).toEqual(before)
  })
})

describe('limits and all or nothing', () => {
  const rows = (n: number, prefix: string, broken?: number) =>
    Array.from({ length: n }, (_, i) => `Person ${i + 1},${prefix}-${String(i + 1).padStart(5, '0')},${i + 1 === broken ? 'not-an-email' : ''}`)

  test('5,001 rows → 400, whatever else the file holds', async () => {
    const reply = await importFile(csv('name,employee_no,email', ...rows(5001, 'BIG')), { dryRun: 'true' })
    expect(reply.body).toEqual(fileRefused('The file has more than 5,000 rows of employees; import at most 5,000 at a time (split the file)'))
  })

  test('a problem in the last of 5,000 rows leaves nothing written; fixed, all 5,000 are created', async () => {
    const before = await tableRows(t)
    const broken = await importFile(csv('name,employee_no,email', ...rows(5000, 'ALL', 5000)))
    expect(broken.body).toEqual(refused([{ row: 5001, field: 'email', message: 'must be an e-mail address of at most 254 characters' }]))
    expect(await tableRows(t)).toEqual(before)

    const auditBefore = await lastAuditId()
    const { employees: employeesBefore } = await counts()
    const fixed = await importFile(csv('name,employee_no,email', ...rows(5000, 'ALL')))
    expect(fixed.body).toEqual(okBody({ created: 5000, errors: [] }, '5,000 employees imported'))
    expect((await counts()).employees).toBe(employeesBefore + 5000)
    const entries = await auditSince(auditBefore)
    expect(entries.length).toBe(5000)
    expect(entries.every((entry) => entry.action === 'employee.create')).toBe(true)
    const last = await req(t.app, 'GET', `/api/v1/admin/employees/${entries[4999].resourceId}`, { token: admin })
    expect(last.body.data).toMatchObject({ name: 'Person 5000', employee_no: 'ALL-05000' })
    expect(entries[4999].after).toEqual(last.body.data)
  })

  test('the database refusing a row mid-way (a unique index no check knows) rolls every row back → 409', async () => {
    // stands for a constraint the checks do not cover: the database has the last word
    await t.deps.database.client.execute('CREATE UNIQUE INDEX test_import_phone ON employees(phone)')
    try {
      const before = await tableRows(t)
      const file = csv('name,employee_no,phone', ...Array.from({ length: 1200 }, (_, i) => `P${i},MID-${i},555 ${i === 1150 ? 1000 : 1000 + i}`))
      const reply = await importFile(file)
      expect(reply.status).toBe(409)
      expect(reply.body).toEqual(
        errorBody(409, 'The database refused a row of the file as a duplicate (employees.phone); nothing was imported. Check the file again with dry_run=true'),
      )
      expect(await tableRows(t)).toEqual(before)
    } finally {
      await t.deps.database.client.execute('DROP INDEX test_import_phone')
    }
  })

  test('two identical imports at once: one creates them, the other is refused naming every row; one set exists', async () => {
    const file = csv('name,employee_no,username,password', 'Race One,RACE-1,race.one,race-password-1', 'Race Two,RACE-2,,')
    const before = await counts()
    const replies = await Promise.all([importFile(file), importFile(file)])
    const statuses = replies.map((reply) => reply.status).sort()
    expect(statuses).toEqual([200, 400])
    const winner = replies.find((reply) => reply.status === 200)!
    const loser = replies.find((reply) => reply.status === 400)!
    expect(winner.body).toEqual(okBody({ created: 2, errors: [] }, '2 employees imported'))
    expect(loser.body).toEqual(
      refused([
        { row: 2, field: 'employee_no', message: 'Employee number "RACE-1" is already in use' },
        { row: 2, field: 'username', message: 'The username "race.one" is already taken (usernames are unique ignoring case)' },
        { row: 3, field: 'employee_no', message: 'Employee number "RACE-2" is already in use' },
      ]),
    )
    expect(await counts()).toEqual({ employees: before.employees + 2, users: before.users + 1 })
    expect(await login(t.app, 'race.one', 'race-password-1')).toBeString()
  })
})

describe('the request', () => {
  test('dry_run is required, true or false', async () => {
    expect((await importFile(csv('name', 'A'), { dryRun: null })).body).toEqual(invalidBody('dry_run', 'is required'))
    expect((await importFile(csv('name', 'A'), { dryRun: 'yes' })).body).toEqual(
      invalidBody('dry_run', 'must be true (check the file and write nothing) or false (import it)'),
    )
  })

  test('no file, the file as a text field, JSON instead of a form → 400', async () => {
    const form = new FormData()
    form.append('file', 'name\nAnn\n')
    const asText = await replyOf(
      await t.app.handle(new Request(`http://localhost${PATH}?dry_run=true`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } })),
    )
    expect(asText.body).toEqual(
      errorBody(400, 'No file: send the CSV file in the multipart field "file" (it came as text: attach the file, e.g. curl -F file=@employees.csv)', {
        errors: [{ field: 'file', message: 'is required' }],
      }),
    )
    const otherField = await importFile(csv('name', 'A'), { field: 'csv' })
    expect(otherField.body).toEqual(errorBody(400, 'No file: send the CSV file in the multipart field "file"', { errors: [{ field: 'file', message: 'is required' }] }))
    const json = await req(t.app, 'POST', `${PATH}?dry_run=true`, { token: admin, body: { file: 'name\nAnn' } })
    expect(json.body).toEqual(errorBody(400, 'Send the file as multipart/form-data'))
  })

  test('a file over 4 MiB → 413, with its size declared or not; nothing written', async () => {
    const before = await tableRows(t)
    const big = csv('name,position', ...Array.from({ length: 4500 }, (_, i) => `P${i},${'x'.repeat(1000)}`))
    expect(big.length).toBeGreaterThan(4 * MiB)
    const tooLarge = errorBody(413, 'The file is larger than 4 MiB; an import takes at most 5,000 rows: split the file')
    expect((await importFile(big)).body).toEqual(tooLarge)
    // the same form streamed with no Content-Length: refused while it passes
    const request = importRequest(big)
    const bytes = new Uint8Array(await request.arrayBuffer())
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024))
        controller.close()
      },
    })
    const headers = { authorization: `Bearer ${admin}`, 'content-type': request.headers.get('content-type')! }
    const reply = await replyOf(await t.app.handle(new Request(request.url, { method: 'POST', body: streamed, headers, duplex: 'half' } as RequestInit)))
    expect([reply.status, reply.body]).toEqual([413, tooLarge])
    expect(await tableRows(t)).toEqual(before)
  })
})

describe('permissions', () => {
  let clerk: { id: number; token: string }

  beforeAll(async () => {
    await req(t.app, 'POST', '/api/v1/admin/roles', { token: admin, body: { name: 'hr_clerk' } })
    for (const permission of ['employees:create', 'employees:read'])
      await req(t.app, 'POST', '/api/v1/admin/roles/permissions/add', { token: admin, body: { role_name: 'hr_clerk', permission_name: permission } })
    clerk = await makeUser(t.app, admin, 'hr-clerk', ['hr_clerk'])
  })

  test('without employees:create → 403, before the file is read', async () => {
    const nobody = await makeUser(t.app, admin, 'no-roles')
    const reply = await importFile(csv('name', 'Sneaky'), { token: nobody.token })
    expect([reply.status, reply.body]).toEqual([403, errorBody(403, 'Your roles do not grant the permission employees:create; ask an administrator for it')])
  })

  test('employees:create alone imports employees, but not accounts (role employee holds what it does not) → 403, nothing written', async () => {
    const fine = await importFile(csv('name,employee_no', 'Clerk Made,CLERK-1'), { token: clerk.token })
    expect(fine.body).toEqual(okBody({ created: 1, errors: [] }, '1 employee imported'))

    const employeeRole = await req(t.app, 'GET', '/api/v1/admin/roles/by-name/employee/permissions', { token: admin })
    const lacking = (employeeRole.body.data as { name: string }[]).map((permission) => permission.name).sort()
    expect(lacking).toContain('attendance:clock')
    const before = await tableRows(t)
    const withAccount = csv('name,employee_no,username,password', 'Plain,CLERK-2,,', 'Account,CLERK-3,clerk.made,clerk-password-1')
    for (const dryRun of ['true', 'false']) {
      const reply = await importFile(withAccount, { token: clerk.token, dryRun })
      expect([reply.status, reply.body]).toEqual([
        403,
        errorBody(403, `You cannot give a new account role employee: it involves ${lacking.join(', ')}, which your own roles do not grant`),
      ])
    }
    expect(await tableRows(t)).toEqual(before)
  })

  test('making oneself the manager of imported employees needs approvals:manage → 403', async () => {
    const own = await req(t.app, 'POST', '/api/v1/admin/employees', { token: admin, body: { name: 'HR Clerk', user_id: clerk.id } })
    expect(own.status).toBe(201)
    const before = await tableRows(t)
    const reply = await importFile(csv('name,manager_id', `Report,${own.body.data.id}`), { token: clerk.token })
    expect([reply.status, reply.body]).toEqual([
      403,
      errorBody(403, 'You cannot make yourself the manager of an employee: that would let you decide their requests, which needs approvals:manage'),
    ])
    expect(await tableRows(t)).toEqual(before)
  })
})
