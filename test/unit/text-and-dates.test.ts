import { describe, expect, test } from 'bun:test'
import { isCalendarDate } from '../../src/lib/dates'
import { optionalText, requiredText } from '../../src/lib/text'
import { canonicalTimeZone } from '../../src/lib/timezone'

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
  })

  test('optional text: blank becomes null, absent stays absent', () => {
    expect(optionalText(' x ')).toBe('x')
    expect(optionalText('  ')).toBeNull()
    expect(optionalText(null)).toBeNull()
    expect(optionalText(undefined)).toBeUndefined()
  })
})
