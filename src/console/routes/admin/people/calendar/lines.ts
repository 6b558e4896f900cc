/*
 * Calendar days written by hand: a range of dates (the add form) and pasted lines (the paste screen),
 * turned into the days the calendar import takes (CONTRACT §8, §24), each line with what is wrong
 * with it. Pure: no React, no words (problems are codes the page puts in the console's language).
 */

export type Kind = 'holiday' | 'workday'

export interface Day {
  date: string
  kind: Kind
  name: string
  statutory: boolean
}

/** The most days one import takes (the API's MAX_IMPORT_DAYS). */
export const MAX_DAYS = 400
/** The longest name the API takes. */
export const MAX_NAME = 100

const pad = (n: number) => String(n).padStart(2, '0')
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A 'YYYY-MM-DD' that names a real day (not 2026-02-30). */
export function isRealDate(text: string): boolean {
  const match = DATE.exec(text)
  if (!match) return false
  const [y, m, d] = match.slice(1).map(Number) as [number, number, number]
  const day = new Date(Date.UTC(y, m - 1, d))
  return y >= 1 && day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d
}

const nextDay = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const day = new Date(Date.UTC(y, m - 1, d + 1))
  return `${String(day.getUTCFullYear()).padStart(4, '0')}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`
}

/** Every date from `from` to `to`, both included; [] when `to` is before `from`; at most `limit + 1` dates (enough to tell "too many"). */
export function datesBetween(from: string, to: string, limit = MAX_DAYS): string[] {
  const dates: string[] = []
  for (let date = from; date <= to && dates.length <= limit; date = nextDay(date)) dates.push(date)
  return dates
}

/** What can be wrong with a pasted line. */
export type Problem =
  | { code: 'fields' }
  | { code: 'date' }
  | { code: 'unrealDate' }
  | { code: 'kind' }
  | { code: 'name' }
  | { code: 'longName' }
  | { code: 'statutory' }
  | { code: 'statutoryWorkday' }
  | { code: 'repeated'; line: number }
  | { code: 'tooMany' }

export interface Line {
  /** the line's number in the pasted text (1 = the first) */
  line: number
  /** what the line says, as far as it could be read */
  day: Day
  problems: Problem[]
}

const KINDS: Record<string, Kind> = {
  holiday: 'holiday',
  workday: 'workday',
  节假日: 'holiday',
  假日: 'holiday',
  休: 'holiday',
  调休上班日: 'workday',
  调休上班: 'workday',
  班: 'workday',
}
const YES = ['yes', 'y', 'true', '1', '是', '法定']
const NO = ['', 'no', 'n', 'false', '0', '否']

/** A line's fields, split by commas (also full-width ，) or tabs, each trimmed; a field in double quotes may hold them ("" is a quote). */
export function fieldsOf(line: string): string[] {
  const fields: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!
    if (quoted && char === '"' && line[i + 1] === '"') {
      current += '"'
      i++
    } else if (quoted && char === '"') quoted = false
    else if (quoted) current += char
    else if (char === '"' && current.trim() === '') {
      current = ''
      quoted = true
    } else if (char === ',' || char === '，' || char === '\t') {
      fields.push(current.trim())
      current = ''
    } else current += char
  }
  fields.push(current.trim())
  return fields
}

/**
 * Pasted text, one day a line: `date,kind,name[,statutory]`, or `date,name` for a holiday. Fields
 * are split by commas (also full-width ，) or tabs (a spreadsheet's copy); blank lines are skipped,
 * and so is a first line whose first field is `date` (a CSV file's header).
 */
export function parseLines(text: string, limit = MAX_DAYS): Line[] {
  const lines: Line[] = []
  const seen = new Map<string, number>()
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    if (raw.trim() === '') return
    const fields = fieldsOf(raw)
    if (lines.length === 0 && /^(date|日期)$/i.test(fields[0] ?? '')) return
    const line = index + 1
    const date = fields[0] ?? ''
    if (fields.length < 2 || fields.length > 4) {
      lines.push({ line, day: { date, kind: 'holiday', name: '', statutory: false }, problems: [{ code: 'fields' }] })
      return
    }
    const [kindText, name, statutoryText] = fields.length === 2 ? ['holiday', fields[1]!, ''] : [fields[1]!, fields[2]!, fields[3] ?? '']
    const problems: Problem[] = []
    if (!DATE.test(date)) problems.push({ code: 'date' })
    else if (!isRealDate(date)) problems.push({ code: 'unrealDate' })
    else if (seen.has(date)) problems.push({ code: 'repeated', line: seen.get(date)! })
    else seen.set(date, line)
    const kind: Kind | undefined = Object.hasOwn(KINDS, kindText.toLowerCase()) ? KINDS[kindText.toLowerCase()] : undefined
    if (kind === undefined) problems.push({ code: 'kind' })
    if (name === '') problems.push({ code: 'name' })
    else if (name.length > MAX_NAME) problems.push({ code: 'longName' })
    const lowered = statutoryText.toLowerCase()
    const statutory = YES.includes(lowered)
    if (!statutory && !NO.includes(lowered)) problems.push({ code: 'statutory' })
    else if (statutory && kind === 'workday') problems.push({ code: 'statutoryWorkday' })
    lines.push({ line, day: { date, kind: kind ?? 'holiday', name, statutory }, problems })
  })
  if (lines.length > limit) for (const line of lines.slice(limit)) line.problems.push({ code: 'tooMany' })
  return lines
}
