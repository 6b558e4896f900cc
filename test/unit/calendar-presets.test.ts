import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isCalendarDate } from '../../src/lib/dates'
import { weekday } from '../../src/lib/local-time'
import { PRESETS } from '../../src/modules/calendar/presets'

/*
 * The holiday presets shipped with the release (CONTRACT §24), file by file: each a faithful copy
 * of an official notice. Dates real, unique and sorted, all in the preset's year; a make-up workday
 * only on a Saturday or Sunday; China's 13 statutory days a year (since 2025), each a holiday.
 */

const FOLDER = join(import.meta.dir, '..', '..', 'src', 'modules', 'calendar', 'presets')
const files = readdirSync(FOLDER).filter((name) => name.endsWith('.json')).sort()

interface PresetFile {
  id: string
  country: string
  year: number
  source: { title: string; number: string; published: string; url: string }
  days: { date: string; kind: string; name: string; statutory: boolean }[]
}
const read = (name: string) => JSON.parse(readFileSync(join(FOLDER, name), 'utf8')) as PresetFile

const CHINESE_NAMES = ['元旦', '春节', '清明节', '劳动节', '端午节', '中秋节', '国庆节']

describe('the preset files', () => {
  test('one file per country and year, each loaded and served by its id', () => {
    expect(files).toEqual(['cn-2025.json', 'cn-2026.json'])
    expect(PRESETS.map((preset) => preset.id)).toEqual(['cn-2025', 'cn-2026'])
    for (const name of files) expect(PRESETS.find((preset) => preset.id === name.replace('.json', ''))).toEqual(read(name) as never)
  })

  for (const name of files)
    describe(name, () => {
      const preset = read(name)

      test('id, country and year agree with the file name; only the known fields', () => {
        expect(preset.id).toBe(name.replace('.json', ''))
        expect(`${preset.country.toLowerCase()}-${preset.year}`).toBe(preset.id)
        expect(Object.keys(preset).sort()).toEqual(['country', 'days', 'id', 'source', 'year'])
        for (const day of preset.days) expect(Object.keys(day).sort()).toEqual(['date', 'kind', 'name', 'statutory'])
      })

      test('cites its source: title, document number, date of publication and a gov.cn address', () => {
        expect(Object.keys(preset.source).sort()).toEqual(['number', 'published', 'title', 'url'])
        expect(preset.source.title).toBe(`国务院办公厅关于${preset.year}年部分节假日安排的通知`)
        expect(preset.source.number).toMatch(/^国办发明电〔\d{4}〕\d+号$/)
        expect(isCalendarDate(preset.source.published)).toBe(true)
        // a year's notice comes out in the year before
        expect(preset.source.published.slice(0, 4)).toBe(String(preset.year - 1))
        expect(preset.source.url).toMatch(/^https:\/\//)
      })

      test('dates are real, in the year, unique and sorted', () => {
        const dates = preset.days.map((day) => day.date)
        for (const date of dates) {
          expect(isCalendarDate(date)).toBe(true)
          expect(date.slice(0, 4)).toBe(String(preset.year))
        }
        expect(new Set(dates).size).toBe(dates.length)
        expect(dates).toEqual([...dates].sort())
      })

      test('kinds are holiday or workday; a make-up workday falls on a Saturday or Sunday and is never statutory', () => {
        for (const day of preset.days) {
          expect(['holiday', 'workday']).toContain(day.kind)
          expect(typeof day.statutory).toBe('boolean')
        }
        const workdays = preset.days.filter((day) => day.kind === 'workday')
        expect(workdays.length).toBeGreaterThan(0)
        expect(workdays.filter((day) => weekday(day.date) < 6).map((day) => day.date)).toEqual([])
        expect(workdays.filter((day) => day.statutory).map((day) => day.date)).toEqual([])
      })

      test('13 statutory days, each a holiday', () => {
        const statutory = preset.days.filter((day) => day.statutory)
        expect(statutory).toHaveLength(13)
        for (const day of statutory) expect(day.kind).toBe('holiday')
      })

      test('names are the notice’s, in Chinese: a festival, or “<festival>调休上班” for a make-up workday', () => {
        for (const day of preset.days)
          expect(CHINESE_NAMES.map((festival) => (day.kind === 'holiday' ? festival : `${festival}调休上班`))).toContain(day.name)
      })
    })
})
