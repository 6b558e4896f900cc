import { createHash } from 'node:crypto'
import type { InValue } from '@libsql/client'
import type { Random } from './random'

export const FILE_COLUMNS = [
  'id',
  'storage_key',
  'filename',
  'original_name',
  'mime_type',
  'size',
  'etag',
  'folder',
  'description',
  'is_public',
  'uploaded_by',
  'download_count',
  'last_accessed_at',
  'created_at',
  'updated_at',
] as const

interface Kind {
  mime: string
  extension: string
  weight: number
  names: string[]
  /** the first bytes, so a sniffer sees the type the metadata names */
  magic: Uint8Array
  text: boolean
}

const bytes = (...values: number[]) => new Uint8Array(values)
const ascii = (value: string) => new TextEncoder().encode(value)
const ZIP = bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00)

const KINDS: Kind[] = [
  {
    mime: 'application/pdf',
    extension: 'pdf',
    weight: 35,
    names: ['劳动合同', 'Employment contract', '工资条', 'Payslip', 'Expense report', '体检报告', 'Training certificate'],
    magic: ascii('%PDF-1.7\n%\xe2\xe3\n'),
    text: false,
  },
  {
    mime: 'image/jpeg',
    extension: 'jpg',
    weight: 25,
    names: ['IMG', '证件照', 'ID card scan', 'Receipt photo', 'Team outing'],
    magic: bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01),
    text: false,
  },
  {
    mime: 'image/png',
    extension: 'png',
    weight: 20,
    names: ['Screenshot', 'avatar', '签名', 'Org chart'],
    magic: bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    text: false,
  },
  {
    mime: 'text/plain',
    extension: 'csv',
    weight: 5,
    names: ['attendance-export', 'roster', '考勤导出'],
    magic: ascii('employee_no,name,work_date,status\n'),
    text: true,
  },
  { mime: 'text/plain', extension: 'txt', weight: 5, names: ['notes', 'handover', '交接说明'], magic: ascii('Notes\n=====\n'), text: true },
  {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extension: 'docx',
    weight: 5,
    names: ['Offer letter', '请假申请', 'Job description'],
    magic: ZIP,
    text: false,
  },
  {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extension: 'xlsx',
    weight: 5,
    names: ['Budget', '绩效考核表', 'Overtime sheet'],
    magic: ZIP,
    text: false,
  },
]
const KIND_WEIGHTS = KINDS.map((kind) => kind.weight)

const FOLDERS = [null, 'contracts', 'payslips/2024', 'payslips/2025', 'avatars', 'receipts', 'reports/quarterly', 'training', '证件']
const FOLDER_WEIGHTS = [30, 15, 8, 8, 10, 12, 7, 5, 5]
const DESCRIPTIONS = ['Signed copy', '已盖章', 'Scanned at the front desk', 'Uploaded for HR review']

export const MIN_FILE_BYTES = 512

/** Filler for the objects' bodies, made once: random bytes for binary types, lines of text for text ones. */
export function fillers(random: Random, maxBytes: number): { binary: Uint8Array; text: Uint8Array } {
  const binary = new Uint8Array(maxBytes)
  const view = new DataView(binary.buffer)
  for (let i = 0; i + 4 <= maxBytes; i += 4) view.setUint32(i, Math.floor(random.next() * 4_294_967_296))
  const line = 'E000123,Zhang Wei,2025-03-14,normal\n'
  const text = ascii(line.repeat(Math.ceil(maxBytes / line.length)).slice(0, maxBytes))
  return { binary, text }
}

export interface SeededFile {
  row: InValue[]
  key: string
  body: Uint8Array
}

/**
 * File metadata as an upload writes it (key YYYY/MM/<uuid>.<ext> from the upload's UTC
 * month, etag the MD5 of the bytes, size their length), with the small object to keep
 * on disk so start-up reconciliation finds the bytes and keeps the row.
 */
export function makeFile(
  random: Random,
  filler: { binary: Uint8Array; text: Uint8Array },
  options: { uploader: number; createdAt: number; until: number; maxBytes: number },
): SeededFile {
  const kind = KINDS[random.weighted(KIND_WEIGHTS)]
  const id = random.uuid()
  const created = new Date(options.createdAt)
  const filename = `${id}.${kind.extension}`
  const key = `${created.getUTCFullYear()}/${String(created.getUTCMonth() + 1).padStart(2, '0')}/${filename}`
  const size = Math.round(MIN_FILE_BYTES * (options.maxBytes / MIN_FILE_BYTES) ** random.next())
  const body = new Uint8Array(size)
  const head = new Uint8Array([...kind.magic, ...ascii(`${id}\n`)]).subarray(0, size)
  body.set(head)
  const source = kind.text ? filler.text : filler.binary
  const offset = random.int(0, Math.max(0, source.length - size))
  body.set(source.subarray(offset, offset + size - head.length), head.length)
  const etag = createHash('md5').update(body).digest('hex')

  const name = random.pick(kind.names)
  const originalName =
    name === 'IMG' ? `IMG_${random.int(1000, 9999)}.${kind.extension}` : `${name}-${random.int(1, 999)}.${kind.extension}`
  const downloads = random.chance(0.6) ? 0 : Math.floor(random.next() ** 3 * 200) + 1
  const lastAccessed = downloads > 0 ? options.createdAt + Math.floor(random.next() * (options.until - options.createdAt)) : null
  const row: InValue[] = [
    id,
    key,
    filename,
    originalName,
    kind.mime,
    size,
    etag,
    FOLDERS[random.weighted(FOLDER_WEIGHTS)],
    random.chance(0.2) ? random.pick(DESCRIPTIONS) : null,
    random.chance(0.1) ? 1 : 0,
    options.uploader,
    downloads,
    lastAccessed,
    options.createdAt,
    options.createdAt,
  ]
  return { row, key, body }
}
