import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { users } from './users'

/** Metadata of stored files; the bytes live in the object store under `storage_key`. */
export const files = sqliteTable(
  'files',
  {
    /** UUID */
    id: text('id').primaryKey(),
    /** made by the service (YYYY/MM/<uuid><.ext>), never from a request */
    storageKey: text('storage_key').notNull(),
    /** the stored name: <uuid><.ext> */
    filename: text('filename').notNull(),
    originalName: text('original_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    etag: text('etag').notNull(),
    folder: text('folder'),
    description: text('description'),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(false),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    downloadCount: integer('download_count').notNull().default(0),
    lastAccessedAt: integer('last_accessed_at', { mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('files_storage_key_unique').on(t.storageKey),
    index('files_created_idx').on(t.createdAt),
    index('files_uploader_idx').on(t.uploadedBy, t.createdAt),
    index('files_public_idx').on(t.isPublic, t.createdAt),
    index('files_folder_idx').on(t.folder, t.createdAt),
    index('files_mime_idx').on(t.mimeType),
  ],
)
