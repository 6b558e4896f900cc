import type { Locale } from '../../config'
import type { Database, Tx } from '../../db/client'
import { DatabaseUnavailableError } from '../../db/unavailable'
import { AppError, ForbiddenError, NotFoundError, ValidationError } from '../../http/errors'
import { say as http } from '../../http/messages'
import { pageWindow, p3Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import { render } from '../../lib/messages'
import { formatSize } from '../../lib/size-format'
import type { UrlSigner } from '../../lib/url-signer'
import { recordAudit, type Actor } from '../audit/recorder'
import { allows } from '../rbac/ability'
import type { Principal } from '../rbac/access'
import { contentResponse } from './content'
import { ALLOWED_TYPES } from './file-types'
import { say as common } from '../../http/messages'
import { say } from './messages'
import type { BatchDeleteResult, BatchUploadResult, FileDetail, FileListItem, FileListQuery } from './model'
import { readMultipart } from './multipart'
import { allot, QuotaExceededError, uploadBudget, type UploadBudget } from './quota'
import * as repo from './repository'
import { StorageUnavailableError, type ObjectStore } from './store'
import { checkFolder, createPartWriter, drain, fileTooLarge, originalNameOf, rowsFor, type Stored } from './upload'

export const MAX_BATCH_FILES = 20

const DEFAULT_LINK_SECONDS = 3600
const PROBE_CACHE_MS = 2000
/** Room for the multipart framing and text fields around the files. */
const FORM_OVERHEAD = 1024 * 1024

/** Why one file of a batch failed, in words of `locale`: a refusal's message, or its own text for any other error. */
function failureText(error: unknown, locale: Locale): string {
  if (error instanceof AppError || error instanceof DatabaseUnavailableError) return render(error.text, locale)
  return error instanceof Error && error.message ? error.message : render(say.failed(), locale)
}

export interface StorageDeps {
  database: Database
  clock: Clock
  store: ObjectStore
  signer: UrlSigner
  publicUrl: string
  maxFileSize: number
  /** bytes of files one account may keep (UPLOAD_QUOTA); 0 means no limit */
  uploadQuota: number
  /** where clients see the store (GET /config) */
  endpoint: string
}

export function createStorageService(deps: StorageDeps) {
  const { database, clock, store, signer, publicUrl, maxFileSize, uploadQuota } = deps
  const { db } = database
  let probed = { at: -Infinity, up: true }

  const tooLarge = () => fileTooLarge(maxFileSize)
  const storePart = createPartWriter({ store, clock, maxFileSize })
  const canManage = (principal: Principal) => allows(principal.ability, 'files:manage')
  const canRead = (file: repo.FileRow, principal: Principal) =>
    canManage(principal) || file.uploadedBy === principal.userId || file.isPublic
  const canChange = (file: repo.FileRow, principal: Principal) => canManage(principal) || file.uploadedBy === principal.userId
  const notFound = (id: string) => new NotFoundError(say.fileMissing({ id }))

  const contentUrl = (id: string) => `${publicUrl}/api/v1/storage/files/${id}/content`

  /** A link valid for `expiresIn` seconds, and the instant it stops working. */
  const signedUrl = async (file: repo.FileRow, expiresIn: number): Promise<{ url: string; expiresAt: Date }> => {
    const now = clock.now()
    if (store.presign)
      return {
        url: await store.presign(file.storageKey, expiresIn, { filename: file.originalName, contentType: file.mimeType }),
        expiresAt: new Date(now.getTime() + expiresIn * 1000),
      }
    const expires = Math.floor(now.getTime() / 1000) + expiresIn
    return {
      url: `${contentUrl(file.id)}?expires=${expires}&signature=${signer.sign(file.id, expires)}`,
      expiresAt: new Date(expires * 1000),
    }
  }

  const toListItem = (file: repo.FileWithUploader): FileListItem => ({
    id: file.id,
    filename: file.filename,
    original_name: file.originalName,
    mime_type: file.mimeType,
    size: file.size,
    size_formatted: formatSize(file.size),
    folder: file.folder,
    description: file.description,
    is_public: file.isPublic,
    uploaded_by: file.uploader && { id: file.uploader.id, name: file.uploader.name },
    created_at: file.createdAt.toISOString(),
  })

  const toDetail = async (file: repo.FileWithUploader): Promise<FileDetail> => ({
    ...toListItem(file),
    url: contentUrl(file.id),
    download_url: (await signedUrl(file, DEFAULT_LINK_SECONDS)).url,
    uploaded_by: file.uploader,
    last_accessed_at: file.lastAccessedAt?.toISOString() ?? null,
    download_count: file.downloadCount,
  })

  /** Removes what an abandoned request stored; the start-up reconciliation catches what this misses. */
  const discard = async (keys: string[]) => {
    await Promise.allSettled(keys.map((key) => store.remove(key)))
  }

  const declaredSize = (request: Request) => {
    const declared = Number(request.headers.get('content-length'))
    return Number.isFinite(declared) ? declared : 0
  }

  const checkDeclaredSize = (request: Request, files: number) => {
    if (declaredSize(request) > maxFileSize * files + FORM_OVERHEAD) throw tooLarge()
  }

  // The quota counts the bytes of the files an account uploaded, whatever its permissions.
  const quotaApplies = (actor: Actor): actor is Actor & { userId: number } => uploadQuota > 0 && actor.userId !== null

  /** What the account may stream in this request; a single file declared larger than what is left is refused before it is read. */
  const budgetFor = async (actor: Actor, request: Request, single: boolean): Promise<UploadBudget> => {
    if (!quotaApplies(actor)) return uploadBudget(0, 0)
    const used = await repo.bytesUploadedBy(db, actor.userId)
    if (single && declaredSize(request) > uploadQuota - used + FORM_OVERHEAD) throw new QuotaExceededError(used, uploadQuota)
    return uploadBudget(used, uploadQuota)
  }

  /** The rows that fit in the account's quota, decided inside the write transaction so that concurrent uploads cannot pass it together. */
  const allotted = async (tx: Tx, actor: Actor, rows: repo.NewFile[]) =>
    quotaApplies(actor) ? allot(await repo.bytesUploadedBy(tx, actor.userId), uploadQuota, rows) : allot(0, 0, rows)

  const loadReadable = async (id: string, principal: Principal) => {
    const file = await repo.findFile(db, id)
    if (!file || !canRead(file, principal)) throw notFound(id)
    return file
  }

  const loadChangeable = async (id: string, principal: Principal) => {
    const file = await loadReadable(id, principal)
    if (!canChange(file, principal)) throw new ForbiddenError(say.uploaderOnly({ id }))
    return file
  }

  return {
    /** 503 while the store cannot be reached; the answer is kept for two seconds. */
    async ensureAvailable(): Promise<void> {
      const now = performance.now()
      if (now - probed.at > PROBE_CACHE_MS) probed = { at: now, up: await store.probe() }
      if (!probed.up) throw new StorageUnavailableError(store.kind === 's3' ? say.s3Silent() : say.folderSilent())
    },

    async upload(request: Request, actor: Actor): Promise<FileDetail> {
      checkDeclaredSize(request, 1)
      const budget = await budgetFor(actor, request, true)
      const keys: string[] = []
      try {
        const form = await readMultipart(request, 1, async (part) => (part.field === 'file' ? storePart(part, keys, budget) : drain(part)))
        if (form.tooManyFiles) throw new ValidationError(say.oneFileOnly())
        const failure = form.files.find((result) => result.status === 'rejected')
        if (failure) throw (failure as PromiseRejectedResult).reason
        const stored = form.files.flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []))
        if (stored.length === 0) throw new ValidationError(say.noFile(), [{ field: 'file', message: http.required() }])
        const now = clock.now()
        const [row] = rowsFor(stored, form.fields, actor.userId, now)
        await database.write(async (tx) => {
          const refusal = (await allotted(tx, actor, [row])).refused.get(row)
          if (refusal) throw refusal
          await repo.insertFiles(tx, [row])
          await recordAudit(tx, actor, now, {
            action: 'file.upload',
            resource: 'file',
            resourceId: row.id,
            after: { ...row, storageKey: undefined },
          })
        })
        return toDetail((await repo.findFile(db, row.id))!)
      } catch (error) {
        await discard(keys)
        throw error
      }
    },

    async batchUpload(request: Request, actor: Actor, locale: Locale): Promise<BatchUploadResult> {
      checkDeclaredSize(request, MAX_BATCH_FILES)
      const budget = await budgetFor(actor, request, false)
      const keys: string[] = []
      try {
        const entries: { name: string; task: Promise<Stored> }[] = []
        const form = await readMultipart(request, MAX_BATCH_FILES, async (part) => {
          if (!['files', 'files[]', 'file'].includes(part.field)) return drain(part)
          const task = storePart(part, keys, budget)
          entries.push({ name: originalNameOf(part.filename), task })
          await task.catch(() => undefined)
        })
        if (form.tooManyFiles) throw new ValidationError(say.tooManyFiles({ max: MAX_BATCH_FILES }))
        if (entries.length === 0) throw new ValidationError(say.noFiles(), [{ field: 'files', message: http.required() }])
        const outcomes = await Promise.allSettled(entries.map((entry) => entry.task))
        const stored = outcomes.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
        const now = clock.now()
        const rows = rowsFor(stored, form.fields, actor.userId, now)
        const refused =
          rows.length === 0
            ? new Map<string, Error>()
            : await database.write(async (tx) => {
                const { kept, refused } = await allotted(tx, actor, rows)
                if (kept.length > 0) {
                  await repo.insertFiles(tx, kept)
                  await recordAudit(tx, actor, now, {
                    action: 'file.batch_upload',
                    resource: 'file',
                    resourceId: null,
                    after: { files: kept.map((row) => ({ id: row.id, original_name: row.originalName, size: row.size })) },
                  })
                }
                return new Map<string, Error>([...refused].map(([row, error]) => [row.id, error]))
              })
        await discard(stored.filter((file) => refused.has(file.id)).map((file) => file.key))
        const results = outcomes.map((result, i) => {
          const error = result.status === 'fulfilled' ? refused.get(result.value.id) : (result.reason as Error)
          return result.status === 'fulfilled' && !error
            ? {
                id: result.value.id,
                filename: result.value.filename,
                original_name: result.value.originalName,
                size: result.value.size,
                url: contentUrl(result.value.id),
                status: 'success' as const,
              }
            : { original_name: entries[i].name, status: 'failed' as const, error: failureText(error, locale) }
        })
        const success = stored.length - refused.size
        return { total: results.length, success, failed: results.length - success, results }
      } catch (error) {
        await discard(keys)
        throw error
      }
    },

    async info(id: string, principal: Principal): Promise<FileDetail> {
      return toDetail(await loadReadable(id, principal))
    },

    async list(query: FileListQuery, principal: Principal) {
      const window = pageWindow(query, 20)
      for (const field of ['date_from', 'date_to'] as const)
        if (query[field] && !isCalendarDate(query[field]!))
          throw new ValidationError(common.notRealDateOf({ field, value: query[field]! }), [{ field, message: say.notRealDateField() }])
      const from = query.date_from ? new Date(`${query.date_from}T00:00:00Z`) : undefined
      const until = query.date_to ? new Date(new Date(`${query.date_to}T00:00:00Z`).getTime() + 86_400_000) : undefined
      const { rows, total, size } = await repo.listFiles(
        db,
        {
          visibleTo: canManage(principal) ? null : principal.userId,
          folder: query.folder === undefined ? undefined : (checkFolder(query.folder) ?? undefined),
          search: query.search,
          mimeType: query.mime_type?.trim(),
          uploadedBy: query.uploaded_by,
          from,
          until,
        },
        query.sort_by ?? 'created_at',
        query.sort_order ?? 'desc',
        window,
      )
      return {
        files: rows.map(toListItem),
        pagination: p3Pagination(total, window),
        summary: { total_files: total, total_size: size, total_size_formatted: formatSize(size) },
      }
    },

    /** The object goes first: a crash in between leaves a row without bytes, which start-up removes. */
    async remove(id: string, principal: Principal, actor: Actor) {
      const file = await loadChangeable(id, principal)
      await store.remove(file.storageKey)
      const now = clock.now()
      await database.write(async (tx) => {
        await repo.deleteFile(tx, id)
        await recordAudit(tx, actor, now, { action: 'file.delete', resource: 'file', resourceId: id, before: toListItem(file) })
      })
      return { deleted: true, file_id: id }
    },

    async batchRemove(ids: string[], principal: Principal, actor: Actor, locale: Locale): Promise<BatchDeleteResult> {
      const results: BatchDeleteResult['results'] = []
      const removed: repo.FileWithUploader[] = []
      for (const id of ids) {
        try {
          if (removed.some((file) => file.id === id)) throw notFound(id)
          const file = await loadChangeable(id, principal)
          await store.remove(file.storageKey)
          removed.push(file)
          results.push({ file_id: id, status: 'success' })
        } catch (error) {
          results.push({ file_id: id, status: 'failed', error: failureText(error, locale) })
        }
      }
      const now = clock.now()
      if (removed.length > 0)
        await database.write(async (tx) => {
          for (const file of removed) await repo.deleteFile(tx, file.id)
          await recordAudit(tx, actor, now, {
            action: 'file.batch_delete',
            resource: 'file',
            resourceId: null,
            before: { files: removed.map(toListItem) },
          })
        })
      return { total: ids.length, success: removed.length, failed: ids.length - removed.length, results }
    },

    async presign(id: string, expiresIn: number | undefined, principal: Principal) {
      const file = await loadChangeable(id, principal)
      const seconds = expiresIn ?? DEFAULT_LINK_SECONDS
      const link = await signedUrl(file, seconds)
      return { presigned_url: link.url, expires_at: link.expiresAt.toISOString(), expires_in: seconds }
    },

    config(locale: Locale) {
      return {
        max_file_size: maxFileSize,
        max_file_size_formatted: formatSize(maxFileSize),
        upload_quota: uploadQuota,
        upload_quota_formatted: uploadQuota > 0 ? formatSize(uploadQuota) : render(say.noLimit(), locale),
        allowed_types: Object.keys(ALLOWED_TYPES),
        storage_endpoint: deps.endpoint,
        features: { multipart_upload: store.kind === 's3', resumable_upload: false, image_processing: false, video_processing: false },
      }
    },

    /**
     * The bytes of a file: with a valid signature, or for a public file, without a token;
     * otherwise for a caller who may read it. Supports one `Range`.
     */
    async content(
      id: string,
      access: { signature?: string; expires?: number; principal: () => Promise<Principal> },
      headers: { range?: string; ifNoneMatch?: string },
      /** HEAD: the headers only; nothing is read and no download is counted */
      headOnly = false,
    ): Promise<Response> {
      const now = clock.now()
      const file = await repo.findFile(db, id)
      if (access.signature !== undefined || access.expires !== undefined) {
        if (!signer.verify(id, access.expires ?? NaN, access.signature ?? '', now))
          throw new ForbiddenError(say.linkInvalid())
        if (!file) throw notFound(id)
      } else if (!file?.isPublic) {
        const principal = await access.principal()
        if (!file || !canRead(file, principal)) throw notFound(id)
      }
      return contentResponse(file!, headers, headOnly, {
        open: (range) => store.get(file!.storageKey, range),
        counted: () => database.write((tx) => repo.recordDownload(tx, id, now)),
      })
    },
  }
}

export type StorageService = ReturnType<typeof createStorageService>
