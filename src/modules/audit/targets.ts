import type { Locale } from '../../config'
import { render, type Message } from '../../lib/messages'
import { actionWords, batchWords, say, typeWords } from './messages'

/*
 * `action_text` and `target_text` of an audit entry (issue 27): the action in words, and its target
 * as a person knows it — an employee by name and number, an account by username, a company,
 * department, group, rule, leave type, role, permission or file by its name — looked up when the
 * list is read, one query per kind of target on the page. A target that is gone reads
 * "employee #126 (deleted)"; any other by its type in words and its id.
 */

/** The kinds of target looked up by id. */
export const NAMED_KINDS = [
  'employee',
  'user',
  'company',
  'department',
  'attendance_group',
  'attendance_rule',
  'leave_type',
  'role',
  'permission',
  'file',
] as const
export type NamedKind = (typeof NAMED_KINDS)[number]

const isNamed = (resource: string): resource is NamedKind => (NAMED_KINDS as readonly string[]).includes(resource)

/** The name of each target found, by kind and id (as the entry writes it). */
export type TargetNames = ReadonlyMap<NamedKind, ReadonlyMap<string, Message | string>>

/** One target an entry names: its kind and id. */
interface Ref {
  kind: NamedKind
  id: string
}

/** A `a/b/c` resource id cut at its slashes, each part present. */
const parts = (id: string, count: number): string[] | null => {
  const cut = id.split('/')
  return cut.length === count && cut.every((part) => part !== '') ? cut : null
}

/** The targets an entry's resource id names (a leave balance names an employee and a leave type). */
export function refsOf(resource: string, resourceId: string | null): Ref[] {
  if (resourceId === null) return []
  if (isNamed(resource)) return [{ kind: resource, id: resourceId }]
  if (resource === 'company_calendar') return [{ kind: 'company', id: resourceId }]
  if (resource === 'calendar_day') {
    const cut = parts(resourceId, 2)
    return cut ? [{ kind: 'company', id: cut[0] }] : []
  }
  if (resource === 'leave_balance') {
    const cut = parts(resourceId, 3)
    return cut
      ? [
          { kind: 'employee', id: cut[0] },
          { kind: 'leave_type', id: cut[1] },
        ]
      : []
  }
  return []
}

/** The ids to look up, by kind, for every entry of a page. */
export function wantedIds(entries: readonly { resource: string; resourceId: string | null }[]): Map<NamedKind, string[]> {
  const wanted = new Map<NamedKind, Set<string>>()
  for (const entry of entries)
    for (const ref of refsOf(entry.resource, entry.resourceId)) {
      const ids = wanted.get(ref.kind) ?? new Set<string>()
      ids.add(ref.id)
      wanted.set(ref.kind, ids)
    }
  return new Map([...wanted].map(([kind, ids]) => [kind, [...ids]]))
}

const typeText = (resource: string, locale: Locale): string => {
  const words = Object.hasOwn(typeWords, resource) ? typeWords[resource as keyof typeof typeWords] : undefined
  return words ? render(words(), locale) : resource
}

/** The name of one target, or "type #id (deleted)" when it is gone. */
const nameOf = (ref: Ref, names: TargetNames): Message | string =>
  names.get(ref.kind)?.get(ref.id) ?? say.deleted({ type: typeWords[ref.kind](), id: ref.id })

/** An employee as a person knows them: "Zhang San (E001)", or the name alone without a number. */
export const employeeName = (name: string, no: string | null): Message | string => (no ? say.employee({ name, no }) : name)

/** The target of an entry in words of `locale`. */
export function targetText(resource: string, resourceId: string | null, names: TargetNames, locale: Locale): string {
  const text = (value: Message | string) => (typeof value === 'string' ? value : render(value, locale))
  // a change of many at once (a batch) names no one target
  if (resourceId === null)
    return Object.hasOwn(batchWords, resource) ? render(batchWords[resource as keyof typeof batchWords](), locale) : typeText(resource, locale)
  if (isNamed(resource)) return text(nameOf({ kind: resource, id: resourceId }, names))
  if (resource === 'company_calendar') return text(say.companyCalendar({ company: nameOf({ kind: 'company', id: resourceId }, names) }))
  if (resource === 'calendar_day') {
    const cut = parts(resourceId, 2)
    if (cut) return text(say.calendarDay({ date: cut[1], company: nameOf({ kind: 'company', id: cut[0] }, names) }))
  }
  if (resource === 'leave_balance') {
    const cut = parts(resourceId, 3)
    if (cut)
      return text(
        say.leaveBalance({
          employee: nameOf({ kind: 'employee', id: cut[0] }, names),
          leaveType: nameOf({ kind: 'leave_type', id: cut[1] }, names),
          year: cut[2],
        }),
      )
  }
  if (resource === 'attendance_day') return text(say.attendanceDay({ date: resourceId }))
  if (resource === 'export') return text(say.exportOf({ month: resourceId }))
  return `${typeText(resource, locale)} #${resourceId}`
}

/** The action in words of `locale`; a code with no words is shown as itself. */
export function actionText(action: string, locale: Locale): string {
  const words = Object.hasOwn(actionWords, action) ? actionWords[action as keyof typeof actionWords] : undefined
  return words ? render(words(), locale) : action
}
