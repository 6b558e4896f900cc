import type { Locale } from '../../config'
import { localClockTime, localDate, weekday } from '../../lib/local-time'
import { render, type Message } from '../../lib/messages'
import { weekdayRules } from '../attendance/records'
import type { RuleRow } from '../attendance/setup/repository'
import type { CompanyCalendar, DayKind } from '../calendar/work-days'
import { DAY_CODES } from './attendance-sheet'
import { header, legend, say, weekdays } from './messages'
import type { Layout } from './model'
import type { Column, Dress, Format, Sheet } from './sheet'

/*
 * The two layouts of an export (CONTRACT §24). `data`: a header of field names and the values,
 * the same every month (the files of §12, byte for byte). `sheet`: the same rows, dressed for a
 * clerk to print or hand over: headers in words of the request's language, a title row, the
 * weekdays under the dates, holidays and rest days shaded (XLSX), a totals row and a legend.
 */

/** A CSV is data unless asked otherwise; an XLSX is a sheet. */
export const layoutOf = (format: Format, layout: Layout | undefined): Layout => layout ?? (format === 'xlsx' ? 'sheet' : 'data')

/** What a sheet needs besides its rows. */
export type Layouted = Pick<Sheet, 'name' | 'columns' | 'frozenColumns' | 'totals' | 'dress'>

const ATTENDANCE_TOTALS: Column[] = [
  ...['work_days', 'attendance_days', 'late_days', 'late_minutes', 'early_days', 'absent_days'].map((header): Column => ({
    header,
    kind: 'integer',
    width: header.length + 2,
  })),
  { header: 'leave_days', kind: 'number', width: 12 },
  { header: 'overtime_hours', kind: 'number', width: 16 },
  { header: 'work_hours', kind: 'number', width: 12 },
]

/**
 * What the sheet layout totals besides (CONTRACT §18): approved hourly leave in hours, statistics'
 * leave_hours. After §12's columns, and not in the data layout, whose file stays §12's byte for byte (§24).
 */
const SHEET_TOTALS: Column[] = [{ header: 'leave_hours', kind: 'number', width: 13 }]

/** The totals of a layout, after the dates. */
export const attendanceTotals = (layout: Layout): readonly Column[] => (layout === 'sheet' ? [...ATTENDANCE_TOTALS, ...SHEET_TOTALS] : ATTENDANCE_TOTALS)

/** The attendance sheet's columns (with their data layout's headers): who, a code per date, the month's totals. */
export const attendanceColumns = (dates: readonly string[], layout: Layout = 'data'): Column[] => [
  { header: 'employee_no', kind: 'text', width: 14 },
  { header: 'name', kind: 'text', width: 18 },
  { header: 'department', kind: 'text', width: 16 },
  ...dates.map((date): Column => ({ header: date, kind: 'text', width: 11 })),
  ...attendanceTotals(layout),
]

/** The company a sheet is about (the one of the people on it), or none when they are of several (or of none). */
export interface SheetCompany {
  name: string | null
  /** the zone the title tells the time of making in: the company's, else the service's */
  zone: string
}

/** How a date shows on the sheet: the company calendar's mark, and whether it is shaded (a holiday or a rest day). */
export interface DayLook {
  kind: DayKind | null
  shaded: boolean
}

/** The ISO weekdays (1–7) on which an enabled rule of one of the groups works (Monday to Friday when no rule is known). */
function workingWeekdays(rulesOfGroups: readonly (readonly RuleRow[])[]): Set<number> {
  const known = rulesOfGroups.filter((rules) => rules.length > 0)
  if (known.length === 0) return new Set([1, 2, 3, 4, 5])
  const days = new Set<number>()
  for (const rules of known) for (const [day, rule] of weekdayRules(rules).entries()) if (rule.workDay) days.add(day)
  return days
}

/**
 * Each date's look: a calendar mark where every company of the sheet's people marks the date so
 * (one company in all but the rarest sheets); a rest day where none of their groups' enabled rules
 * works that weekday and the date is no make-up workday. Statutory holidays are holidays here.
 */
export function dayLooks(dates: readonly string[], calendars: readonly CompanyCalendar[], rulesOfGroups: readonly (readonly RuleRow[])[]): DayLook[] {
  const working = workingWeekdays(rulesOfGroups)
  return dates.map((date) => {
    const kinds = calendars.map((calendar) => calendar.get(date)?.kind ?? null)
    const kind = kinds.length > 0 && kinds.every((k) => k === kinds[0]) ? kinds[0] : null
    return { kind, shaded: kind === 'holiday' || (kind !== 'workday' && !working.has(weekday(date))) }
  })
}

const WEEKDAYS = [weekdays.mon, weekdays.tue, weekdays.wed, weekdays.thu, weekdays.fri, weekdays.sat, weekdays.sun]

/** Under a date: its weekday, and the calendar's mark (H or 休 a holiday, W or 班 a make-up workday). */
function weekdayCell(date: string, kind: DayKind | null): Message {
  const day = WEEKDAYS[weekday(date) - 1]()
  return kind === null ? day : weekdays[kind]({ day })
}

const LEGEND: [code: string, meaning: () => Message][] = [
  [DAY_CODES.normal, legend.normal],
  [DAY_CODES.late, legend.late],
  [DAY_CODES.early, legend.early],
  [DAY_CODES.absent, legend.absent],
  [DAY_CODES.exception, legend.exception],
  [DAY_CODES.leave, legend.leave],
  [DAY_CODES.halfLeave, legend.halfLeave],
  [DAY_CODES.holiday, legend.holiday],
]

/** "October 2024", "2024年10月". */
const monthWords = (month: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale === 'zh' ? 'zh-CN' : 'en-GB', { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`))

/** The title's parts: the company (or all), the month, and when the file was made, in the company's zone. */
function titleValues(month: string, company: SheetCompany, now: Date, locale: Locale) {
  const time = localClockTime(now, company.zone)
  return {
    company: company.name ?? say.allCompanies(),
    month: monthWords(month, locale),
    made: `${localDate(now, company.zone)} ${time}`,
    zone: company.zone,
  }
}

export interface SheetFacts {
  locale: Locale
  month: string
  company: SheetCompany
  now: Date
}

/** A column of the data layout with its header in words (the field's name is the key of its words). */
const inWords = (column: Column, locale: Locale, width: number): Column => ({
  ...column,
  header: render(header[column.header as keyof typeof header](), locale),
  width,
})

/** The attendance sheet in the sheet layout: frozen after the name, the dates by day number with the weekdays below. */
export function attendanceSheetLayout({ locale, month, company, now }: SheetFacts, dates: readonly string[], looks: readonly DayLook[]): Layouted {
  const columns = attendanceColumns(dates, 'sheet').map((column, i): Column => {
    const day = i - 3
    if (day < 0) return inWords(column, locale, i === 0 ? 10 : 14)
    if (day < dates.length) return { header: String(Number(dates[day].slice(8))), kind: 'text', width: 6, centred: true, shaded: looks[day].shaded }
    return inWords(column, locale, 9)
  })
  const text = (message: Message) => render(message, locale)
  const dress: Dress = {
    title: text(say.attendanceTitle(titleValues(month, company, now, locale))),
    subheader: [null, null, null, ...dates.map((date, i) => text(weekdayCell(date, looks[i].kind))), ...attendanceTotals('sheet').map(() => null)],
    legend: (format) => [
      [text(legend.title())],
      ...LEGEND.map(([code, meaning]) => [code, text(meaning())]),
      [text(legend.noneCode()), text(legend.none())],
      [text(legend.marks())],
      ...(format === 'xlsx' ? [[text(legend.shading())]] : []),
    ],
  }
  return { name: text(say.attendanceSheetName({ month })), columns, frozenColumns: 2, totals: text(say.total()), dress }
}

/** The salary register in the sheet layout: the amounts under their names in words, a totals row. */
export function salarySheetLayout({ locale, month, company, now }: SheetFacts, dataColumns: readonly Column[]): Layouted {
  const widths: Record<Column['kind'], number> = { text: 11, integer: 9, number: 9, yuan: 13 }
  const columns = dataColumns.map((column, i) => inWords(column, locale, i === 1 || i === 2 ? 14 : widths[column.kind]))
  return {
    name: render(say.salarySheetName({ month }), locale),
    columns,
    frozenColumns: 2,
    totals: render(say.total(), locale),
    dress: { title: render(say.salaryTitle(titleValues(month, company, now, locale)), locale) },
  }
}
