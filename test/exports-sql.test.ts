import { afterAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { attendanceRecords, calendarDays, companies, employees, leaveRequests, leaveTypes } from '../src/db/schema'
import { dayTotals, type DayTotals } from '../src/modules/attendance/repository'
import { calendarBetween } from '../src/modules/calendar/repository'
import { dayTotalsOf, leaveDatesOf } from '../src/modules/exports/attendance-sheet'
import { recordsOf, approvedLeaveOf } from '../src/modules/exports/repository'
import { leaveDates, datesOf } from '../src/modules/leave/repository'
import { startApp } from './helpers'

/** FUZZ_SEED=<n> varies the generated cases. */
const SEED = Number(process.env.FUZZ_SEED ?? 20241001)

/*
 * The export's JS versions of the statistics' SQL inputs against the SQL itself, on the same rows:
 * attendance/repository.dayTotals (aggregates per month, weekday and calendar mark) and
 * leave/repository.leaveDates, over generated records, calendars and approved leave, both read
 * through the export's page queries (recordsOf, approvedLeaveOf).
 */

const t = await startApp()
afterAll(() => t.close())
const { db } = t.deps.database
const [company] = await db.insert(companies).values({ name: 'Acme' }).returning()
const [other] = await db.insert(companies).values({ name: 'Other' }).returning()
const [employee] = await db.insert(employees).values({ name: 'ann' }).returning()
const [type] = await db.insert(leaveTypes).values({ name: 'Annual' }).returning()

const DATES = datesOf('2024-09-25', '2024-11-05')
const byKey = (rows: DayTotals[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, key === 'kind' || key === 'month' ? value : Number(value)]))).sort((a, b) =>
    `${a.month} ${a.weekday} ${a.kind}`.localeCompare(`${b.month} ${b.weekday} ${b.kind}`),
  )

const caseArb = fc.record({
  records: fc.dictionary(
    fc.constantFrom(...DATES),
    fc.record({
      status: fc.integer({ min: 0, max: 4 }),
      clockedIn: fc.boolean(),
      lateMinutes: fc.constantFrom(0, 0, 3, 61),
      earlyMinutes: fc.constantFrom(0, 0, 9),
      workMinutes: fc.integer({ min: 0, max: 1440 }),
      overtimeMinutes: fc.constantFrom(0, 30, 95),
    }),
    { maxKeys: 30 },
  ),
  marks: fc.dictionary(fc.constantFrom(...DATES), fc.constantFrom('holiday' as const, 'workday' as const), { maxKeys: 8 }),
  otherMarks: fc.dictionary(fc.constantFrom(...DATES), fc.constantFrom('holiday' as const, 'workday' as const), { maxKeys: 4 }),
  leave: fc.array(
    fc.record({
      start: fc.constantFrom(...DATES),
      length: fc.integer({ min: 0, max: 5 }),
      halfDay: fc.constantFrom(null, null, 'am' as const, 'pm' as const),
      status: fc.constantFrom('approved', 'approved', 'pending', 'cancelled' as const),
    }),
    { maxLength: 5 },
  ),
  range: fc.constantFrom(['2024-10-01', '2024-10-31'], ['2024-09-25', '2024-11-05'], ['2024-10-10', '2024-10-10']),
  since: fc.constantFrom('2024-09-01', '2024-10-07', '2024-10-20'),
  today: fc.constantFrom('2024-10-01', '2024-10-16', '2024-11-30'),
  companyId: fc.constantFrom<number | null>(company.id, null),
})

describe('the export’s JS aggregates equal the statistics’ SQL on the same rows', () => {
  test('dayTotalsOf = dayTotals, leaveDatesOf = leaveDates', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        await db.delete(attendanceRecords)
        await db.delete(calendarDays)
        await db.delete(leaveRequests)
        const records = Object.entries(c.records).map(([workDate, r]) => ({
          employeeId: employee.id,
          workDate,
          timezone: 'UTC',
          status: r.status,
          clockInTime: r.clockedIn ? new Date(`${workDate}T09:00:00Z`) : null,
          lateMinutes: r.lateMinutes,
          earlyMinutes: r.earlyMinutes,
          workMinutes: r.workMinutes,
          overtimeMinutes: r.overtimeMinutes,
        }))
        if (records.length > 0) await db.insert(attendanceRecords).values(records)
        const marks = [
          ...Object.entries(c.marks).map(([date, kind]) => ({ companyId: company.id, date, kind, name: kind })),
          ...Object.entries(c.otherMarks).map(([date, kind]) => ({ companyId: other.id, date, kind, name: kind })),
        ]
        if (marks.length > 0) await db.insert(calendarDays).values(marks)
        const requests = c.leave.map(({ start, length, halfDay, status }) => ({
          employeeId: employee.id,
          typeId: type.id,
          startDate: start,
          endDate: halfDay ? start : (DATES[Math.min(DATES.length - 1, DATES.indexOf(start) + length)] ?? start),
          halfDay,
          amount: 1,
          status,
        }))
        if (requests.length > 0) await db.insert(leaveRequests).values(requests)

        const [start, end] = c.range
        const loaded = (await recordsOf(db, [employee.id], start, end)).get(employee.id) ?? []
        const calendar = await calendarBetween(db, c.companyId, start, end)
        const sql = await dayTotals(db, employee.id, start, end, c.since, c.today, c.companyId)
        expect(byKey(dayTotalsOf(loaded, { start, end, since: c.since, today: c.today }, calendar))).toEqual(byKey(sql))

        const approved = await approvedLeaveOf(db, [employee.id], start, end)
        const byDate = new Map(loaded.map((record) => [record.workDate, record]))
        const sortByDate = <T extends { date: string }>(rows: T[]) => [...rows].sort((a, b) => a.date.localeCompare(b.date))
        expect(sortByDate(leaveDatesOf(approved, byDate, start, end))).toEqual(sortByDate(await leaveDates(db, employee.id, start, end)))
      }),
      { numRuns: 150, seed: SEED },
    )
  }, 60_000)
})
