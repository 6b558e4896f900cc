import { describe, expect, test } from 'bun:test'
import { p1, p2Pagination, p3Pagination, pageWindow } from '../../src/http/pagination'

describe('page windows', () => {
  test.each([
    ['defaults', {}, 10, { page: 1, pageSize: 10, offset: 0 }],
    ['the files default', {}, 20, { page: 1, pageSize: 20, offset: 0 }],
    ['page 3 of 25', { page: 3, page_size: 25 }, 10, { page: 3, pageSize: 25, offset: 50 }],
    ['page_size 100 kept', { page: 2, page_size: 100 }, 10, { page: 2, pageSize: 100, offset: 100 }],
    ['page_size 101 cut', { page: 2, page_size: 101 }, 10, { page: 2, pageSize: 100, offset: 100 }],
    ['a huge page_size cut', { page: 1, page_size: 1_000_000 }, 10, { page: 1, pageSize: 100, offset: 0 }],
  ])('%s', (_, query, defaultSize, expected) => {
    expect(pageWindow(query, defaultSize)).toEqual(expected)
  })
})

describe('list shapes', () => {
  const window = pageWindow({ page: 2, page_size: 10 }, 10)

  test('P1', () => {
    expect(p1(['a'], 11, window)).toEqual({ list: ['a'], total: 11, page: 2, page_size: 10 })
  })

  test.each([
    [0, { page: 1, page_size: 10 }, { current_page: 1, page_size: 10, total_items: 0, total_pages: 0, has_next: false, has_prev: false }],
    [10, { page: 1, page_size: 10 }, { current_page: 1, page_size: 10, total_items: 10, total_pages: 1, has_next: false, has_prev: false }],
    [11, { page: 1, page_size: 10 }, { current_page: 1, page_size: 10, total_items: 11, total_pages: 2, has_next: true, has_prev: false }],
    [11, { page: 2, page_size: 10 }, { current_page: 2, page_size: 10, total_items: 11, total_pages: 2, has_next: false, has_prev: true }],
    [30, { page: 2, page_size: 10 }, { current_page: 2, page_size: 10, total_items: 30, total_pages: 3, has_next: true, has_prev: true }],
    [5, { page: 9, page_size: 10 }, { current_page: 9, page_size: 10, total_items: 5, total_pages: 1, has_next: false, has_prev: true }],
  ])('P2 with %p items on a page of %o', (total, query, expected) => {
    expect(p2Pagination(total, pageWindow(query, 10))).toEqual(expected)
  })

  test.each([
    [0, { page: 1, page_size: 20 }, { page: 1, page_size: 20, total: 0, pages: 0 }],
    [41, { page: 3, page_size: 20 }, { page: 3, page_size: 20, total: 41, pages: 3 }],
  ])('P3 with %p items on a page of %o', (total, query, expected) => {
    expect(p3Pagination(total, pageWindow(query, 20))).toEqual(expected)
  })
})
