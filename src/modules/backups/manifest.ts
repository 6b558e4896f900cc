import { Type as t, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

/** Names inside an archive. The manifest comes last: only then are the checksums known. */
export const DATABASE_ENTRY = 'database.db'
export const FILES_PREFIX = 'files/'
export const MANIFEST_ENTRY = 'manifest.json'
/** `sha256sum -c` format, so the manifest itself is checked too (`<hex>  manifest.json`). */
export const MANIFEST_CHECKSUM_ENTRY = 'manifest.json.sha256'

export const FORMAT = 'workforce-backup'
export const FORMAT_VERSION = 1

const Sha256 = t.String({ pattern: '^[0-9a-f]{64}$' })

export const Manifest = t.Object({
  format: t.Literal(FORMAT),
  format_version: t.Integer({ minimum: 1 }),
  service_version: t.String(),
  created_at: t.String({ pattern: String.raw`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$` }),
  /** the last drizzle migration applied to the archived database */
  migration: t.Object({
    tag: t.Union([t.String(), t.Null()]),
    /** drizzle's `folderMillis`: the order migrations are applied in */
    created_at: t.Integer(),
    applied: t.Integer({ minimum: 0 }),
  }),
  database: t.Object({ entry: t.Literal(DATABASE_ENTRY), rows: t.Record(t.String(), t.Integer({ minimum: 0 })) }),
  files: t.Object({
    store: t.Union([t.Literal('file'), t.Literal('s3')]),
    included: t.Boolean(),
    objects: t.Integer({ minimum: 0 }),
    bytes: t.Integer({ minimum: 0 }),
    note: t.Optional(t.String()),
  }),
  /** every entry but the manifest and its checksum, in archive order */
  entries: t.Array(t.Object({ name: t.String(), size: t.Integer({ minimum: 0 }), sha256: Sha256 })),
})

export type Manifest = Static<typeof Manifest>

/** The manifest's first problem, or null when it has the expected shape. */
export function manifestProblem(value: unknown): string | null {
  if (Value.Check(Manifest, value)) return null
  const first = Value.Errors(Manifest, value).First()
  return first ? `${first.path || '/'} ${first.message}` : 'not a manifest'
}

/** The line `sha256sum -c` reads. */
export const checksumLine = (sha256: string, name: string) => `${sha256}  ${name}\n`
