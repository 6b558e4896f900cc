import { describe, expect, test } from 'bun:test'
import { datesBetween, isRealDate, parseLines } from '../../src/console/routes/admin/people/calendar/lines'
import { calendar as en } from '../../src/console/i18n/en/calendar'
import { calendar as zh } from '../../src/console/i18n/zh/calendar'

/** Every text of a dictionary, functions called with sample values. */
const texts = (tree: unknown): string[] =>
  typeof tree === 'object' && tree !== null
    ? Object.values(tree).flatMap(texts)
    : [typeof tree === 'function' ? String((tree as (...args: unknown[]) => unknown)(...Array.from({ length: tree.length }, () => 2))) : String(tree)]

/*
 * The company calendar's days written by hand in the console (issue 27): a range of dates, and
 * pasted lines read with what is wrong with each, before anything is sent.
 */

describe('a range of dates', () => {
  test('both ends included, across months and years; one day when they are the same; none when reversed', () => {
    expect(datesBetween('2026-10-01', '2026-10-03')).toEqual(['2026-10-01', '2026-10-02', '2026-10-03'])
    expect(datesBetween('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02'])
    expect(datesBetween('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01'])
    expect(datesBetween('2026-05-01', '2026-05-01')).toEqual(['2026-05-01'])
    expect(datesBetween('2026-05-02', '2026-05-01')).toEqual([])
  })

  test('stops one past the limit, enough to say "too many"', () => {
    expect(datesBetween('2026-01-01', '2030-12-31', 400)).toHaveLength(401)
  })

  test.each([
    ['2026-02-28', true],
    ['2026-02-29', false],
    ['2028-02-29', true],
    ['2026-13-01', false],
    ['2026-1-05', false],
    ['0000-01-01', false],
    ['', false],
  ])('%s is a real date: %p', (text, real) => expect(isRealDate(text)).toBe(real))
})

describe('pasted lines', () => {
  const day = (date: string, kind: 'holiday' | 'workday', name: string, statutory = false) => ({ date, kind, name, statutory })

  test('date,kind,name[,statutory] and date,name (a holiday); a header, blank lines, quotes, tabs and full-width commas', () => {
    const text = [
      'date,kind,name,statutory',
      '2026-10-01,holiday,国庆节,yes',
      '',
      '2026-10-04, holiday , "National Day, cont." ',
      '2026-10-10\tworkday\t国庆节调休上班',
      '2026-12-25,Christmas',
      '2026-05-01，节假日，劳动节，是',
      '2026-05-09,调休上班日,劳动节调休上班,no',
    ].join('\r\n')
    expect(parseLines(text)).toEqual([
      { line: 2, day: day('2026-10-01', 'holiday', '国庆节', true), problems: [] },
      { line: 4, day: day('2026-10-04', 'holiday', 'National Day, cont.'), problems: [] },
      { line: 5, day: day('2026-10-10', 'workday', '国庆节调休上班'), problems: [] },
      { line: 6, day: day('2026-12-25', 'holiday', 'Christmas'), problems: [] },
      { line: 7, day: day('2026-05-01', 'holiday', '劳动节', true), problems: [] },
      { line: 8, day: day('2026-05-09', 'workday', '劳动节调休上班'), problems: [] },
    ])
  })

  test('a field in double quotes keeps its commas and quotes', () => {
    expect(parseLines('2026-06-19,holiday,"Dragon Boat ""端午"", day",yes')).toEqual([
      { line: 1, day: day('2026-06-19', 'holiday', 'Dragon Boat "端午", day', true), problems: [] },
    ])
  })

  test('each line says what is wrong with it', () => {
    const text = [
      '2026-10-01',
      '2026/10/02,holiday,x',
      '2026-02-30,holiday,x',
      '2026-10-03,vacation,x',
      '2026-10-05,holiday,',
      `2026-10-06,holiday,${'x'.repeat(101)}`,
      '2026-10-07,holiday,x,maybe',
      '2026-10-10,workday,x,yes',
      '2026-10-03,holiday,again',
      'a,b,c,d,e',
      '2026-10-08,constructor,x',
    ].join('\n')
    expect(parseLines(text).map((line) => [line.line, line.problems])).toEqual([
      [1, [{ code: 'fields' }]],
      [2, [{ code: 'date' }]],
      [3, [{ code: 'unrealDate' }]],
      [4, [{ code: 'kind' }]],
      [5, [{ code: 'name' }]],
      [6, [{ code: 'longName' }]],
      [7, [{ code: 'statutory' }]],
      [8, [{ code: 'statutoryWorkday' }]],
      [9, [{ code: 'repeated', line: 4 }]],
      [10, [{ code: 'fields' }]],
      [11, [{ code: 'kind' }]],
    ])
  })

  test('past the limit, the extra lines say so', () => {
    const text = datesBetween('2026-01-01', '2026-01-05')
      .map((date) => `${date},x`)
      .join('\n')
    expect(parseLines(text, 3).map((line) => line.problems)).toEqual([[], [], [], [{ code: 'tooMany' }], [{ code: 'tooMany' }]])
  })

  test('nothing pasted: no lines', () => {
    expect(parseLines('')).toEqual([])
    expect(parseLines('date,name\n\n')).toEqual([])
  })
})

describe('the words of the calendar’s bulk entry', () => {
  // the same keys in both languages: test/console-i18n.test.ts, as for every section
  test('none unfinished in Chinese, every problem code worded', () => {
    for (const text of texts(zh)) expect(text).toMatch(/[\u4e00-\u9fff]/)
    for (const code of ['fields', 'date', 'unrealDate', 'kind', 'name', 'longName', 'statutory', 'statutoryWorkday', 'repeated', 'tooMany'])
      expect(Object.keys(en.paste.problems)).toContain(code)
  })
})
