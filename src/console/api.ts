import { treaty } from '@elysiajs/eden'
import type { App } from '../app'
import { language } from './i18n'
import { session } from './session'

/** A problem with one field (or one row of an imported file), as the API names it. */
export interface FieldProblem {
  row?: number
  field: string
  message: string
}

/** An answer that is not a success: the API's status, its message (in the console's language) and its `errors[]`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message)
  }
}

/** The ApiError of a refusal's body (the envelope's message and errors[]), whatever reached us of it. */
function refusal(status: number, body: unknown): ApiError {
  const { message, errors } = (typeof body === 'object' && body !== null ? body : {}) as { message?: unknown; errors?: unknown }
  return new ApiError(status, typeof message === 'string' ? message : `HTTP ${status}`, Array.isArray(errors) ? (errors as FieldProblem[]) : [])
}

let refreshing: Promise<boolean> | null = null

/** Trades the refresh token for a new pair once, however many requests found the access token expired. */
function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    const tokens = session.get()
    if (!tokens) return false
    try {
      const response = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': language() },
        body: JSON.stringify({ refresh_token: tokens.refresh_token }),
      })
      if (!response.ok) return false
      const body = (await response.json()) as { data: { access_token: string; refresh_token: string } }
      session.set(body.data)
      return true
    } catch {
      return false
    }
  })().finally(() => (refreshing = null))
  return refreshing
}

/** fetch with the access token and the console's language; a 401 refreshes the pair once and retries, or ends the session. */
async function send(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const attempt = () => {
    const headers = new Headers(init.headers)
    const tokens = session.get()
    if (tokens) headers.set('authorization', `Bearer ${tokens.access_token}`)
    headers.set('accept-language', language())
    return fetch(input, { ...init, headers })
  }
  const response = await attempt()
  if (response.status !== 401 || !session.get() || String(input).includes('/api/v1/auth/')) return response
  if (await refresh()) return attempt()
  session.set(null)
  return response
}

/** The typed client: every path, body and answer comes from the server's own route types. */
// parseDate off: Treaty would turn every string that looks like a date (a plain YYYY-MM-DD too) into
// a Date, while the route types say string; the API's dates are strings, and stay so here
export const api = treaty<App>(location.origin, { fetcher: send as typeof fetch, parseDate: false }).api.v1

type EarlyName = 'me' | 'today' | 'rule'

/**
 * An answer boot.ts asked for before this code loaded, taken once: its `data` when it succeeded,
 * else (none asked, expired token, an error) `ask()` as usual.
 */
export async function early<T>(name: EarlyName, ask: () => Promise<T>): Promise<T> {
  const asked = (window as { __workforceEarly?: Partial<Record<EarlyName, Promise<Response>>> }).__workforceEarly
  const pending = asked?.[name]
  if (pending) {
    delete asked![name]
    const response = await pending.catch(() => null)
    if (response?.ok) return ((await response.json()) as Envelope<T>).data
    // a refusal is the answer (asking again would get it again); an expired token goes the usual way, with a refresh
    if (response && response.status !== 401) throw refusal(response.status, await response.json().catch(() => null))
  }
  return ask()
}

interface Envelope<T> {
  data: T
}

/** The `data` of a successful answer, or an ApiError with the API's message and field problems. */
export async function unwrap<T>(call: Promise<{ data: Envelope<T> | null; error: unknown; status: number }>): Promise<T> {
  const result = await call
  if (result.data !== null && result.error === null) return result.data.data
  throw refusal(result.status, (result.error as { value?: unknown } | null)?.value)
}

/** Downloads an answer that is a file (exports, stored files) with the session's token, under the name the server gives. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const response = await send(path)
  if (!response.ok) throw refusal(response.status, await response.json().catch(() => null))
  const disposition = response.headers.get('content-disposition') ?? ''
  const name = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1] ?? /filename="([^"]+)"/i.exec(disposition)?.[1]
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = name ? decodeURIComponent(name) : fallbackName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Sends a multipart form (uploads, the import) through the same session handling. */
export async function sendForm<T>(path: string, form: FormData, method = 'POST'): Promise<T> {
  const response = await send(path, { method, body: form })
  const body = (await response.json().catch(() => null)) as { data?: T } | null
  if (!response.ok) throw refusal(response.status, body)
  return body?.data as T
}
