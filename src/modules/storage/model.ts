import { t } from 'elysia'
import { DateString, Int, PositiveInt, Timestamp } from '../../http/models'
import { P3Pagination, pageQuery } from '../../http/pagination'
import { rules } from './messages'

const FileId = t.String({ format: 'uuid', description: 'file id (UUID)', error: rules.fileId })

const fileFields = {
  id: t.String(),
  filename: t.String({ description: 'stored name' }),
  original_name: t.String(),
  mime_type: t.String(),
  size: t.Integer(),
  size_formatted: t.String(),
  folder: t.Nullable(t.String()),
  description: t.Nullable(t.String()),
  is_public: t.Boolean(),
  created_at: Timestamp,
}

export const FileListItem = t.Object({
  ...fileFields,
  uploaded_by: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
})
export type FileListItem = typeof FileListItem.static

export const FileDetail = t.Object({
  ...fileFields,
  url: t.String({ description: 'the content URL; public files need no token' }),
  download_url: t.String({ description: 'a signed URL valid for an hour' }),
  uploaded_by: t.Nullable(t.Object({ id: t.Integer(), name: t.String(), avatar: t.Nullable(t.String()) })),
  last_accessed_at: t.Nullable(Timestamp),
  download_count: t.Integer(),
})
export type FileDetail = typeof FileDetail.static

export const BatchUploadResult = t.Object({
  total: t.Integer(),
  success: t.Integer(),
  failed: t.Integer(),
  results: t.Array(
    t.Union([
      t.Object({
        id: t.String(),
        filename: t.String(),
        original_name: t.String(),
        size: t.Integer(),
        url: t.String(),
        status: t.Literal('success'),
      }),
      t.Object({ original_name: t.String(), status: t.Literal('failed'), error: t.String() }),
    ]),
  ),
})
export type BatchUploadResult = typeof BatchUploadResult.static

export const FileInfoQuery = t.Object({ file_id: t.String({ ...FileId, error: rules.fileIdQuery }) })

export const SORTS = ['name', 'size', 'created_at'] as const

export const FileListQuery = t.Object({
  ...pageQuery(20),
  folder: t.Optional(t.String({ maxLength: 255, description: 'exact folder' })),
  search: t.Optional(t.String({ maxLength: 100, description: 'part of the original name or description, ignoring case' })),
  mime_type: t.Optional(t.String({ maxLength: 127 })),
  uploaded_by: t.Optional(PositiveInt('uploaded_by', 'user id of the uploader')),
  date_from: t.Optional(t.String({ ...DateString, error: rules.dateFrom })),
  date_to: t.Optional(t.String({ ...DateString, error: rules.dateTo })),
  sort_by: t.Optional(t.UnionEnum(SORTS, { default: 'created_at', error: rules.sortBy })),
  sort_order: t.Optional(t.UnionEnum(['asc', 'desc'], { default: 'desc', error: rules.sortOrder })),
})
export type FileListQuery = typeof FileListQuery.static

export const FileList = t.Object({
  files: t.Array(FileListItem),
  pagination: P3Pagination,
  summary: t.Object({ total_files: t.Integer(), total_size: t.Integer(), total_size_formatted: t.String() }),
})

export const DeleteBody = t.Object({ file_id: FileId }, { examples: [{ file_id: '0b6f2a52-8c1e-4f3a-9d57-2f4e8b1c6a90' }] })
export const DeleteResult = t.Object({ deleted: t.Boolean(), file_id: t.String() })

export const BatchDeleteBody = t.Object(
  { file_ids: t.Array(t.String({ maxLength: 64 }), { minItems: 1, maxItems: 100, description: '1 to 100 file ids' }) },
  { examples: [{ file_ids: ['0b6f2a52-8c1e-4f3a-9d57-2f4e8b1c6a90', '5d1c9e07-3a42-4b8e-a6f1-7c2d0e9b4f13'] }] },
)
export const BatchDeleteResult = t.Object({
  total: t.Integer(),
  success: t.Integer(),
  failed: t.Integer(),
  results: t.Array(t.Object({ file_id: t.String(), status: t.UnionEnum(['success', 'failed']), error: t.Optional(t.String()) })),
})
export type BatchDeleteResult = typeof BatchDeleteResult.static

export const PresignBody = t.Object(
  {
    file_id: FileId,
    expires_in: t.Optional(Int({ minimum: 1, maximum: 604800, default: 3600, error: rules.expiresIn })),
  },
  { examples: [{ file_id: '0b6f2a52-8c1e-4f3a-9d57-2f4e8b1c6a90', expires_in: 3600 }] },
)
export const PresignResult = t.Object({ presigned_url: t.String(), expires_at: Timestamp, expires_in: t.Integer() })

export const StorageConfigResult = t.Object({
  max_file_size: t.Integer(),
  max_file_size_formatted: t.String(),
  upload_quota: t.Integer({ description: 'bytes of files one account may keep (UPLOAD_QUOTA); 0: no limit' }),
  upload_quota_formatted: t.String({ description: 'the same for people, e.g. "2.00 GB" or "no limit"' }),
  allowed_types: t.Array(t.String()),
  storage_endpoint: t.String(),
  features: t.Object({
    multipart_upload: t.Boolean(),
    resumable_upload: t.Boolean(),
    image_processing: t.Boolean(),
    video_processing: t.Boolean(),
  }),
})

export const ContentParams = t.Object({ id: FileId })
export const ContentQuery = t.Object({
  expires: t.Optional(t.Integer({ minimum: 0, error: rules.expires })),
  signature: t.Optional(t.String({ maxLength: 128 })),
})
