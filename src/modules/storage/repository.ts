import { and, asc, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { files, users } from '../../db/schema'
import { containsAny } from '../../db/search'
import type { PageWindow } from '../../http/pagination'

export type FileRow = typeof files.$inferSelect
export type NewFile = typeof files.$inferInsert
export type FileWithUploader = FileRow & { uploader: { id: number; name: string; avatar: string | null } | null }

const withUploader = { file: files, name: users.name, avatar: users.avatar }

function merge(row: { file: FileRow; name: string | null; avatar: string | null }): FileWithUploader {
  const { file, name, avatar } = row
  return { ...file, uploader: file.uploadedBy !== null && name !== null ? { id: file.uploadedBy, name, avatar } : null }
}

export async function findFile(db: Queryable, id: string): Promise<FileWithUploader | null> {
  const [row] = await db.select(withUploader).from(files).leftJoin(users, eq(users.id, files.uploadedBy)).where(eq(files.id, id)).limit(1)
  return row ? merge(row) : null
}

export async function insertFiles(db: Queryable, values: NewFile[]): Promise<void> {
  if (values.length > 0) await db.insert(files).values(values)
}

/** What the files an account uploaded take, in bytes. */
export async function bytesUploadedBy(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<number>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(eq(files.uploadedBy, userId))
  return Number(row.bytes)
}

export async function deleteFile(db: Queryable, id: string): Promise<void> {
  await db.delete(files).where(eq(files.id, id))
}

export async function recordDownload(db: Queryable, id: string, at: Date): Promise<void> {
  await db
    .update(files)
    .set({ downloadCount: sql`${files.downloadCount} + 1`, lastAccessedAt: at })
    .where(eq(files.id, id))
}

export interface FileFilter {
  /** null: every file (files:manage); else this user's files and public ones */
  visibleTo: number | null
  folder?: string
  search?: string
  mimeType?: string
  uploadedBy?: number
  from?: Date
  until?: Date
}

const ORDER = { name: files.originalName, size: files.size, created_at: files.createdAt } as const

export async function listFiles(db: Queryable, filter: FileFilter, sort: keyof typeof ORDER, order: 'asc' | 'desc', window: PageWindow) {
  const conditions: SQL[] = []
  if (filter.visibleTo !== null) conditions.push(or(eq(files.uploadedBy, filter.visibleTo), eq(files.isPublic, true))!)
  if (filter.folder !== undefined) conditions.push(eq(files.folder, filter.folder))
  if (filter.search?.trim()) conditions.push(containsAny(filter.search, [files.originalName, files.description]))
  if (filter.mimeType) conditions.push(eq(files.mimeType, filter.mimeType))
  if (filter.uploadedBy !== undefined) conditions.push(eq(files.uploadedBy, filter.uploadedBy))
  if (filter.from) conditions.push(gte(files.createdAt, filter.from))
  if (filter.until) conditions.push(lt(files.createdAt, filter.until))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const direction = order === 'asc' ? asc : desc
  const [rows, [summary]] = await Promise.all([
    db
      .select(withUploader)
      .from(files)
      .leftJoin(users, eq(users.id, files.uploadedBy))
      .where(where)
      .orderBy(direction(ORDER[sort]), direction(files.id))
      .limit(window.pageSize)
      .offset(window.offset),
    db
      .select({ total: count(), size: sql<number>`coalesce(sum(${files.size}), 0)` })
      .from(files)
      .where(where),
  ])
  return { rows: rows.map(merge), total: summary.total, size: Number(summary.size) }
}

export async function allStorageKeys(db: Queryable): Promise<Map<string, string>> {
  const rows = await db.select({ id: files.id, key: files.storageKey }).from(files)
  return new Map(rows.map((row) => [row.key, row.id]))
}
