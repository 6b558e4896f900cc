/**
 * S9: the employee import (CONTRACT §12) against a running server: a CSV file of 5,000 generated
 * employees without accounts (so no password is hashed: what is measured is reading, checking and
 * writing the rows), first as a dry run, then for real. Employee numbers start with "IMP", which the
 * seed's ("E000001" …) never do, and carry the run's time, so a second run on the same database
 * does not collide with the first.
 */
import { DEPARTMENTS, positionIn } from '../lib/names'
import { createRandom } from '../lib/random'

export interface ImportFigures {
  rows: number
  /** bytes of the CSV file */
  bytes: number
  /** the dry run: every row checked, nothing written */
  dryRunMs: number
  /** the import: checked again and written, in one transaction */
  importMs: number
  created: number
}

const ROWS = 5000

/** 5,000 employees as an HR export would hold them: departments by name (in any case), quoted cells, a byte-order mark. */
export function importFile(rows = ROWS, tag = Date.now().toString(36).toUpperCase()): string {
  const random = createRandom(9)
  const lines = ['name,employee_no,phone,email,department,position,hire_date,status']
  for (let i = 1; i <= rows; i++) {
    const department = DEPARTMENTS[i % DEPARTMENTS.length]
    const number = String(i).padStart(5, '0')
    const hired = `20${String(10 + (i % 14)).padStart(2, '0')}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`
    lines.push(
      [
        `"Imported, Person ${number}"`,
        `IMP${tag}-${number}`,
        `+86 139 ${number.slice(0, 4)} ${number.slice(1)}`,
        `imported.${tag.toLowerCase()}.${number}@example.com`,
        i % 3 === 0 ? department.toUpperCase() : ` ${department} `,
        `"${positionIn(random, department)}"`,
        hired,
        i % 10 === 0 ? '0' : '1',
      ].join(','),
    )
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`
}

async function post(base: string, token: string, file: string, dryRun: boolean): Promise<{ ms: number; created: number }> {
  const form = new FormData()
  form.append('file', new File([file], 'employees.csv', { type: 'text/csv' }))
  const started = performance.now()
  const response = await fetch(`${base}/api/v1/admin/employees/import?dry_run=${dryRun}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  const body = (await response.json()) as { message: string; data: { created: number } | null }
  const ms = performance.now() - started
  if (response.status !== 200) throw new Error(`import (dry_run=${dryRun}) answered ${response.status}: ${body.message}`)
  return { ms, created: body.data!.created }
}

/** Times a dry run of 5,000 rows, then their import; `base` is the server's URL, `token` an administrator's. */
export async function importScenario(base: string, token: string, rows = ROWS): Promise<ImportFigures> {
  const file = importFile(rows)
  const dryRun = await post(base, token, file, true)
  if (dryRun.created !== rows) throw new Error(`the dry run would create ${dryRun.created} employees, not ${rows}`)
  const imported = await post(base, token, file, false)
  if (imported.created !== rows) throw new Error(`the import created ${imported.created} employees, not ${rows}`)
  return { rows, bytes: new TextEncoder().encode(file).length, dryRunMs: dryRun.ms, importMs: imported.ms, created: imported.created }
}
