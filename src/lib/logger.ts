import type { LogLevel } from '../config'

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** One JSON line per event on stdout (stderr for errors). */
export function createLogger(level: LogLevel): Logger {
  const write = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return
    const line = JSON.stringify({ time: new Date().toISOString(), level: at, message, ...fields })
    if (at === 'error') console.error(line)
    else console.log(line)
  }
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
