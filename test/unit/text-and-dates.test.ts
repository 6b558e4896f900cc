import { describe, expect, test } from 'bun:test'
import { isCalendarDate } from '../../src/lib/dates'
import { AppError, renderFieldErrors } from '../../src/http/errors'
import { render } from '../../src/lib/messages'
import { optionalText, requiredText } from '../../src/lib/text'
import { canonicalTimeZone, timeZoneField } from '../../src/lib/timezone'

/** What `work` throws, as the client reads it in Chinese: the message and each field's. */
function inChinese(work: () => unknown) {
  try {
    work()
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return { message: render(error.text, 'zh'), errors: renderFieldErrors(error.errors ?? [], 'zh') }
  }
  throw new Error('expected a refusal')
}

describe('calendar dates', () => {
  test.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-04-31', false],
    ['2024-12-31', true],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-1-01', false],
    ['20240101', false],
    ['', false],
    ['1900-02-29', false],
    ['2000-02-29', true],
  ])('%p is a real date: %p', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected)
  })
})

describe('time zones', () => {
  test.each([
    ['Asia/Shanghai', 'Asia/Shanghai'],
    ['asia/shanghai', 'Asia/Shanghai'],
    ['UTC', 'UTC'],
    ['America/New_York', 'America/New_York'],
    ['Mars/Olympus', null],
    ['', null],
    ['+08:00', null],
    ['Etc/GMT-8', 'Etc/GMT-8'],
  ])('%p → %p', (zone, expected) => {
    expect(canonicalTimeZone(zone)).toBe(expected)
  })
})

describe('text fields', () => {
  test('required text is trimmed and may not be blank', () => {
    expect(requiredText('  Sales ', 'name')).toBe('Sales')
    expect(() => requiredText('   ', 'name')).toThrow('name must not be blank')
    expect(inChinese(() => requiredText('   ', 'name'))).toEqual({ message: 'name：不能为空', errors: [{ field: 'name', message: '不能为空' }] })
    expect(() => requiredText('abcd', 'code', 3)).toThrow('Invalid request: code must be at most 3 characters long')
    expect(inChinese(() => requiredText('abcd', 'code', 3))).toEqual({
      message: '请求无效：code：长度不能超过 3 个字符',
      errors: [{ field: 'code', message: '长度不能超过 3 个字符' }],
    })
  })

  test('a time zone field that names no IANA zone, in both languages', () => {
    expect(() => timeZoneField('Mars/Base')).toThrow('"Mars/Base" is not an IANA time zone; use a name such as Asia/Shanghai or UTC')
    expect(inChinese(() => timeZoneField('Mars/Base'))).toEqual({
      message: '“Mars/Base”不是 IANA 时区；请使用 Asia/Shanghai 或 UTC 这样的名称',
      errors: [{ field: 'timezone', message: '不是 IANA 时区' }],
    })
  })

  test('optional text: blank becomes null, absent stays absent', () => {
    expect(optionalText(' x ')).toBe('x')
    expect(optionalText('  ')).toBeNull()
    expect(optionalText(null)).toBeNull()
    expect(optionalText(undefined)).toBeUndefined()
  })
})
