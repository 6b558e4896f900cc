import { access, constants, mkdir } from 'node:fs/promises'
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3'
import type { StorageConfig } from '../../config'
import type { Database } from '../../db/client'

export type Probe = () => Promise<boolean>

export const databaseProbe =
  (database: Database): Probe =>
  async () => {
    try {
      await database.client.execute('SELECT 1')
      return true
    } catch {
      return false
    }
  }

const PROBE_TIMEOUT_MS = 3000

/** Whether the configured file store can be written: a writable folder, or a reachable bucket. */
export function storageProbe(storage: StorageConfig): Probe {
  if (storage.kind === 'file') {
    return async () => {
      try {
        await mkdir(storage.dir, { recursive: true })
        await access(storage.dir, constants.W_OK)
        return true
      } catch {
        return false
      }
    }
  }
  const client = new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: storage.forcePathStyle,
    credentials:
      storage.accessKeyId && storage.secretAccessKey
        ? { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey }
        : undefined,
  })
  return async () => {
    try {
      await client.send(new HeadBucketCommand({ Bucket: storage.bucket }), {
        abortSignal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      })
      return true
    } catch {
      return false
    }
  }
}
