/**
 * A small command-line flag reader for the bench scripts: `--name value` or
 * `--name=value`, bare `--name` for a switch. Unknown flags and bad values throw, so a
 * typo never runs a long job with a default the caller did not mean.
 */
export class ArgsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ArgsError'
  }
}

export interface FlagSpec {
  /** takes no value */
  switch?: boolean
  help: string
}

export type Flags = Map<string, string | true>

export function parseFlags(argv: string[], specs: Record<string, FlagSpec>): Flags {
  const flags: Flags = new Map()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) throw new ArgsError(`unexpected argument "${arg}"; flags are written --name value`)
    const eq = arg.indexOf('=')
    const name = arg.slice(2, eq === -1 ? undefined : eq)
    const spec = specs[name]
    if (!spec)
      throw new ArgsError(
        `unknown flag --${name}; known: ${Object.keys(specs)
          .map((n) => `--${n}`)
          .join(', ')}`,
      )
    if (spec.switch) {
      if (eq !== -1) throw new ArgsError(`--${name} takes no value`)
      flags.set(name, true)
      continue
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new ArgsError(`--${name} needs a value`)
    flags.set(name, value)
  }
  return flags
}

export function usage(command: string, specs: Record<string, FlagSpec>): string {
  const width = Math.max(...Object.keys(specs).map((name) => name.length)) + 2
  return [`usage: ${command} [flags]`, ...Object.entries(specs).map(([name, spec]) => `  --${name.padEnd(width)} ${spec.help}`)].join('\n')
}

export function text(flags: Flags, name: string): string | undefined {
  const value = flags.get(name)
  return value === true ? undefined : value
}

export function wholeNumber(flags: Flags, name: string, min: number, max: number): number | undefined {
  const raw = text(flags, name)
  if (raw === undefined) return undefined
  const value = Number(raw.replaceAll('_', ''))
  if (!/^\d[\d_]*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max)
    throw new ArgsError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return value
}

export function calendarDate(flags: Flags, name: string): string | undefined {
  const raw = text(flags, name)
  if (raw === undefined) return undefined
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw)
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null
  if (!date || date.toISOString().slice(0, 10) !== raw) throw new ArgsError(`--${name} must be a real date YYYY-MM-DD, got "${raw}"`)
  return raw
}
