import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Client } from '@libsql/client'
import { BulkInsert } from './bulk'
import { FILE_COLUMNS, fillers, makeFile, type SeededFile } from './file-rows'
import type { Random } from './random'

const PARALLEL_WRITES = 64

export interface FilesInput {
  count: number
  storage: string
  /** employee accounts upload most files, the administrator the rest */
  uploaders: { first: number; last: number; admin: number }
  /** uploads fall between these instants (ms), oldest first */
  from: number
  until: number
  maxBytes: number
  rowsPerStatement: number
}

/** File rows with their objects on disk under `storage`: objects first, then the rows, as an upload does. */
export async function seedFiles(client: Client, random: Random, input: FilesInput) {
  const timings: Record<string, number> = {}
  const filler = fillers(random, input.maxBytes)
  const instants = Array.from({ length: input.count }, () => input.from + Math.floor(random.next() * (input.until - input.from))).sort(
    (a, b) => a - b,
  )
  const files: SeededFile[] = instants.map((createdAt) =>
    makeFile(random, filler, {
      uploader: random.chance(0.15) ? input.uploaders.admin : random.int(input.uploaders.first, input.uploaders.last),
      createdAt,
      until: input.until,
      maxBytes: input.maxBytes,
    }),
  )

  let started = performance.now()
  let bytes = 0
  for (const folder of new Set(files.map((file) => dirname(file.key)))) mkdirSync(join(input.storage, folder), { recursive: true })
  for (let i = 0; i < files.length; i += PARALLEL_WRITES)
    await Promise.all(
      files.slice(i, i + PARALLEL_WRITES).map((file) => {
        bytes += file.body.byteLength
        return Bun.write(join(input.storage, ...file.key.split('/')), file.body)
      }),
    )
  timings.file_objects = Math.round(performance.now() - started)

  started = performance.now()
  const tx = await client.transaction('write')
  let count = 0
  try {
    const bulk = new BulkInsert(tx, 'files', FILE_COLUMNS, input.rowsPerStatement)
    for (const file of files) await bulk.add(file.row)
    count = await bulk.finish()
    await tx.commit()
  } finally {
    tx.close()
  }
  timings.files = Math.round(performance.now() - started)
  return { count, bytes, timings }
}
