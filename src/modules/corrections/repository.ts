import { aliasedTable, and, asc, count, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { attendanceCorrections, attendanceRecords, employees, users } from '../../db/schema'
import type { PageWindow } from '../../http/pagination'
import { decidableWhere, joinApprover, manager, type DecidableFilter } from '../approvals/routing'

export type CorrectionRow = typeof attendanceCorrections.$inferSelect
export type NewCorrection = typeof attendanceCorrections.$inferInsert
export type CorrectionStatus = CorrectionRow['status']
type RecordRow = typeof attendanceRecords.$inferSelect
type NewRecord = typeof attendanceRecords.$inferInsert

export interface FullCorrection {
  correction: CorrectionRow
  employeeName: string
  approverId: number | null
  approverName: string | null
  approverStatus: number | null
  deciderName: string | null
}

const decider = aliasedTable(users, 'decider')

function fullCorrections(db: Queryable, where: SQL | undefined) {
  const query = db
    .select({
      correction: attendanceCorrections,
      employeeName: employees.name,
      approverId: manager.id,
      approverName: manager.name,
      approverStatus: manager.status,
      deciderName: decider.name,
    })
    .from(attendanceCorrections)
    .$dynamic()
  return joinApprover(query, attendanceCorrections.employeeId, attendanceCorrections.approverId)
    .leftJoin(decider, eq(decider.id, attendanceCorrections.decidedBy))
    .where(where)
}

export async function findCorrection(db: Queryable, id: number): Promise<FullCorrection | null> {
  const [row] = await fullCorrections(db, eq(attendanceCorrections.id, id)).limit(1)
  return row ?? null
}

/** Inserts a correction; the pending one of an employee and date is unique (the caller maps the violation). */
export async function insertCorrection(db: Queryable, values: NewCorrection): Promise<number> {
  const [row] = await db.insert(attendanceCorrections).values(values).returning({ id: attendanceCorrections.id })
  return row.id
}

export async function pendingOn(db: Queryable, employeeId: number, workDate: string): Promise<CorrectionRow | null> {
  const [row] = await db
    .select()
    .from(attendanceCorrections)
    .where(
      and(eq(attendanceCorrections.employeeId, employeeId), eq(attendanceCorrections.workDate, workDate), eq(attendanceCorrections.status, 'pending')),
    )
    .limit(1)
  return row ?? null
}

/** Moves a correction from pending to `to`; null when it was not pending (someone got there first). */
export async function transition(db: Queryable, id: number, to: CorrectionStatus, values: Partial<NewCorrection>): Promise<CorrectionRow | null> {
  const [row] = await db
    .update(attendanceCorrections)
    .set({ ...values, status: to })
    .where(and(eq(attendanceCorrections.id, id), eq(attendanceCorrections.status, 'pending')))
    .returning()
  return row ?? null
}

/** An employee's corrections, newest first. */
export async function listOwn(db: Queryable, employeeId: number, status: CorrectionStatus | undefined, window: PageWindow) {
  const where = and(eq(attendanceCorrections.employeeId, employeeId), status === undefined ? undefined : eq(attendanceCorrections.status, status))
  const [rows, [{ total }]] = await Promise.all([
    fullCorrections(db, where).orderBy(desc(attendanceCorrections.createdAt), desc(attendanceCorrections.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(attendanceCorrections).where(where),
  ])
  return { rows, total }
}

/** Corrections in `status` the approver decides (every one without `approverId`), never the caller's own; oldest first. */
export async function listDecidable(db: Queryable, filter: DecidableFilter & { status: CorrectionStatus }, window: PageWindow) {
  const where = decidableWhere(attendanceCorrections, filter)
  const [rows, [{ total }]] = await Promise.all([
    fullCorrections(db, where).orderBy(asc(attendanceCorrections.createdAt), asc(attendanceCorrections.id)).limit(window.pageSize).offset(window.offset),
    joinApprover(db.select({ total: count() }).from(attendanceCorrections).$dynamic(), attendanceCorrections.employeeId, attendanceCorrections.approverId).where(where),
  ])
  return { rows, total }
}

// ---- the records a correction changes (inside its transaction)

export async function recordOn(db: Queryable, employeeId: number, workDate: string): Promise<RecordRow | null> {
  const [row] = await db
    .select()
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, employeeId), eq(attendanceRecords.workDate, workDate)))
    .limit(1)
  return row ?? null
}

export async function recordById(db: Queryable, id: number): Promise<RecordRow | null> {
  const [row] = await db.select().from(attendanceRecords).where(eq(attendanceRecords.id, id)).limit(1)
  return row ?? null
}

export async function updateRecord(db: Queryable, id: number, values: Partial<NewRecord>): Promise<RecordRow> {
  const [row] = await db.update(attendanceRecords).set(values).where(eq(attendanceRecords.id, id)).returning()
  return row
}

export async function insertRecord(db: Queryable, values: NewRecord): Promise<RecordRow> {
  const [row] = await db.insert(attendanceRecords).values(values).returning()
  return row
}
