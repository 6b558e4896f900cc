import type { LogLevel } from '../config'

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** Where a finished line goes: stdout, errors to stderr. */
export type LogSink = (line: string, level: LogLevel) => void

const consoleSink: LogSink = (line, level) => (level === 'error' ? console.error(line) : console.log(line))

/** Fields whose value is a credential whatever it looks like. */
const SECRET_KEY = /token|secret|authorization|cookie|hash/i

/**
 * Credentials that can hide inside any text, such as an error message: password hashes, JWTs,
 * bearer headers, and the parameters a failed query lists (they may hold a hash or personal data).
 */
const SECRET_TEXT: [RegExp, string][] = [
  [/\$argon2(?:id|i|d)\$[^\s,;"']+/g, '[redacted hash]'],
  [/\beyJ[\w-]*\.[\w-]*\.[\w-]*/g, '[redacted token]'],
  [/\b(Bearer\s+)\S+/gi, '$1[redacted]'],
  [/^(\s*params:).*$/gm, '$1 [redacted]'],
]

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return SECRET_TEXT.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), value)
  if (value instanceof Error) return scrub(value.stack ?? value.message, depth)
  if (value === null || typeof value !== 'object' || depth > 8) return value
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? '[redacted]' : scrub(item, depth + 1)]))
}

/**
 * One JSON line per event on stdout (stderr for errors). Tokens and password hashes are taken out
 * of every line, wherever they appear; the one-time generated administrator password is meant to be
 * printed and is not.
 */
export function createLogger(level: LogLevel, sink: LogSink = consoleSink): Logger {
  const write = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return
    const clean = scrub({ message, ...fields }) as Record<string, unknown>
    sink(JSON.stringify({ time: new Date().toISOString(), level: at, ...clean }), at)
  }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
