import { t, type TSchema } from 'elysia'
import { ruleText } from '../lib/messages'

export const MAX_PAGE_SIZE = 100

/** `page` and `page_size` query fields; both at least 1, page_size above 100 is cut to 100. */
export const pageQuery = (defaultPageSize: number) => ({
  page: t.Optional(
    t.Integer({ minimum: 1, default: 1, description: 'Page number, from 1', error: ruleText({ en: 'page must be a whole number of at least 1', zh: 'page 必须是不小于 1 的整数' }) }),
  ),
  page_size: t.Optional(
    t.Integer({
      minimum: 1,
      default: defaultPageSize,
      description: `Items per page (above ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE})`,
      error: ruleText({ en: 'page_size must be a whole number of at least 1', zh: 'page_size 必须是不小于 1 的整数' }),
    }),
  ),
})

export interface PageWindow {
  page: number
  pageSize: number
  offset: number
}

export function pageWindow(query: { page?: number; page_size?: number }, defaultPageSize: number): PageWindow {
  const page = query.page ?? 1
  const pageSize = Math.min(query.page_size ?? defaultPageSize, MAX_PAGE_SIZE)
  // a page far beyond the data is just empty; the offset stays an integer SQLite accepts (page=1e20 was a 500)
  return { page, pageSize, offset: Math.min((page - 1) * pageSize, Number.MAX_SAFE_INTEGER) }
}

/** Style P1: `{list, total, page, page_size}`. */
export const P1 = <T extends TSchema>(item: T) =>
  t.Object({ list: t.Array(item), total: t.Integer(), page: t.Integer(), page_size: t.Integer() })

export function p1<T>(list: T[], total: number, window: PageWindow) {
  return { list, total, page: window.page, page_size: window.pageSize }
}

/** Style P2 pagination block. */
export const P2Pagination = t.Object({
  current_page: t.Integer(),
  page_size: t.Integer(),
  total_items: t.Integer(),
  total_pages: t.Integer(),
  has_next: t.Boolean(),
  has_prev: t.Boolean(),
})

export function p2Pagination(total: number, window: PageWindow) {
  const totalPages = Math.ceil(total / window.pageSize)
  return {
    current_page: window.page,
    page_size: window.pageSize,
    total_items: total,
    total_pages: totalPages,
    has_next: window.page < totalPages,
    has_prev: window.page > 1,
  }
}

/** Style P3 pagination block (files). */
export const P3Pagination = t.Object({ page: t.Integer(), page_size: t.Integer(), total: t.Integer(), pages: t.Integer() })

export function p3Pagination(total: number, window: PageWindow) {
  return { page: window.page, page_size: window.pageSize, total, pages: Math.ceil(total / window.pageSize) }
}
