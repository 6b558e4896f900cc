import { describe, expect, test } from 'bun:test'
import { en } from '../src/console/i18n/en'
import { zh } from '../src/console/i18n/zh'

/*
 * The console's two languages hold the same keys (issue 16, CONTRACT §13): a key in one dictionary
 * and not the other fails here, whatever the type checker was told. Leaves are strings or functions
 * (texts with values); a function takes as many values in both languages; no Chinese text is empty
 * or a placeholder.
 */

type Tree = { [key: string]: unknown }

const kindOf = (value: unknown) =>
  typeof value === 'function' ? 'function' : typeof value === 'string' ? 'string' : Array.isArray(value) ? 'array' : value !== null && typeof value === 'object' ? 'object' : typeof value

/** Every leaf of a dictionary by its key path (`common.today.clockIn`). */
export function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const found = new Map<string, unknown>()
  const kind = kindOf(tree)
  if (kind === 'object' || kind === 'array') {
    for (const [key, value] of Object.entries(tree as Tree)) for (const [path, leaf] of leaves(value, prefix ? `${prefix}.${key}` : key)) found.set(path, leaf)
  } else found.set(prefix, tree)
  return found
}

/** How two dictionaries differ: keys missing on either side, leaves of another kind, functions of another arity. */
export function differences(a: unknown, b: unknown, names: [string, string] = ['en', 'zh']): string[] {
  const left = leaves(a)
  const right = leaves(b)
  const problems: string[] = []
  for (const [path, value] of left) {
    if (!right.has(path)) {
      problems.push(`${path}: in ${names[0]}, missing in ${names[1]}`)
      continue
    }
    const other = right.get(path)
    if (kindOf(value) !== kindOf(other)) problems.push(`${path}: a ${kindOf(value)} in ${names[0]}, a ${kindOf(other)} in ${names[1]}`)
    else if (typeof value === 'function' && (value as Function).length !== (other as Function).length)
      problems.push(`${path}: takes ${(value as Function).length} values in ${names[0]}, ${(other as Function).length} in ${names[1]}`)
  }
  for (const path of right.keys()) if (!left.has(path)) problems.push(`${path}: in ${names[1]}, missing in ${names[0]}`)
  return problems
}

const PLACEHOLDER = /^\s*(todo|tbd|fixme|xxx+|\?+|…|\.\.\.|translate( me)?|未翻译|待翻译)\s*$|\bTODO\b|\bFIXME\b/i

/** Chinese texts that are empty or placeholders (functions are called with sample values). */
export function unfinished(tree: unknown): string[] {
  const problems: string[] = []
  for (const [path, value] of leaves(tree)) {
    let text: unknown = value
    if (typeof value === 'function') {
      try {
        text = (value as (...args: unknown[]) => unknown)(...Array.from({ length: value.length }, () => 2))
      } catch {
        // a function whose values must be of another kind: its arity is compared, its text is not checked here
        continue
      }
    }
    if (typeof text !== 'string') continue
    if (text.trim() === '') problems.push(`${path}: empty`)
    else if (PLACEHOLDER.test(text)) problems.push(`${path}: a placeholder (${JSON.stringify(text)})`)
  }
  return problems
}

describe('the console’s dictionaries', () => {
  test('the comparison reports keys missing on either side, kinds and arities that differ', () => {
    const a = { common: { save: 'Save', hello: (name: string) => `Hi ${name}`, nested: { one: 'One' } }, only: 'x' }
    const b = { common: { save: '保存', hello: (name: string, more: string) => `你好 ${name}${more}`, nested: { one: { deeper: '一' }, two: '二' } } }
    expect(differences(a, b)).toEqual([
      'common.hello: takes 1 values in en, 2 in zh',
      'common.nested.one: in en, missing in zh',
      'only: in en, missing in zh',
      'common.nested.one.deeper: in zh, missing in en',
      'common.nested.two: in zh, missing in en',
    ])
    expect(differences({ a: 'x' }, { a: () => 'x' })).toEqual(['a: a string in en, a function in zh'])
    expect(differences(a, a)).toEqual([])
    expect(unfinished({ a: '', b: 'TODO', c: { d: '  ' }, e: () => 'todo', f: '好', g: (n: number) => `${n} 天` })).toEqual([
      'a: empty',
      'b: a placeholder ("TODO")',
      'c.d: empty',
      'e: a placeholder ("todo")',
    ])
  })

  test('English and Chinese have the same keys, of the same kinds, functions taking as many values', () => {
    expect(leaves(en).size).toBeGreaterThan(50)
    expect(differences(en, zh)).toEqual([])
  })

  test('no Chinese text is empty or a placeholder', () => {
    expect(unfinished(zh)).toEqual([])
  })

  test('every section of the English dictionary is in the Chinese one, section by section', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort())
    for (const section of Object.keys(en) as (keyof typeof en)[]) expect({ section, problems: differences(en[section], zh[section]) }).toEqual({ section, problems: [] })
  })
})
