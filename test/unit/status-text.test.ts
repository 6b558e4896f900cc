import { describe, expect, test } from 'bun:test'
import { pickLocale, statusText } from '../../src/lib/status-text'

describe('the language of Accept-Language', () => {
  const cases: [string | undefined, 'en' | 'zh', 'en' | 'zh'][] = [
    [undefined, 'en', 'en'],
    [undefined, 'zh', 'zh'],
    ['', 'zh', 'zh'],
    ['zh', 'en', 'zh'],
    ['zh-CN', 'en', 'zh'],
    ['ZH-tw', 'en', 'zh'],
    ['en', 'zh', 'en'],
    ['en-US,en;q=0.9', 'zh', 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'en', 'zh'],
    ['en;q=0.5, zh;q=0.8', 'en', 'zh'],
    ['fr-FR, de;q=0.9', 'zh', 'zh'],
    ['fr, en;q=0.5, zh;q=0.4', 'zh', 'en'],
    ['zh;q=0, en;q=0.1', 'zh', 'en'],
    ['*', 'zh', 'zh'],
    ['zh;q=abc', 'en', 'en'],
    ['zhx, enx', 'en', 'en'],
  ]
  test.each(cases)('%p with fallback %p → %p', (header, fallback, expected) => {
    expect(pickLocale(header, fallback)).toBe(expected)
  })
})

describe('status texts', () => {
  test('the exact words of the contract', () => {
    expect([0, 1].map((v) => statusText('switch', v, 'en'))).toEqual(['disabled', 'enabled'])
    expect([0, 1].map((v) => statusText('switch', v, 'zh'))).toEqual(['禁用', '启用'])
    expect([0, 1, 2, 3, 4].map((v) => statusText('attendance', v, 'en'))).toEqual(['normal', 'late', 'early leave', 'absent', 'exception'])
    expect([0, 1, 2, 3, 4].map((v) => statusText('attendance', v, 'zh'))).toEqual(['正常', '迟到', '早退', '缺勤', '异常'])
    expect([0, 1].map((v) => statusText('salary', v, 'en'))).toEqual(['unconfirmed', 'paid'])
    expect([0, 1].map((v) => statusText('salary', v, 'zh'))).toEqual(['未确认', '已发放'])
  })

  test('a value without a text shows as its digits', () => {
    expect(statusText('switch', 7, 'en')).toBe('7')
  })
})
