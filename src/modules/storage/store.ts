import { ServiceUnavailableError } from '../../http/errors'
import type { Message } from '../../lib/messages'
import { say } from './messages'

/** What a store reports of an object it has written. */
export interface StoredObject {
  size: number
  /** a strong validator for the object's bytes (hex MD5 for the local store; S3's ETag without quotes) */
  etag: string
}

export interface ObjectInfo {
  key: string
  size: number
  lastModified: Date
}

/**
 * Object storage behind one interface: the local disk or any S3-compatible store.
 * Keys are made by the service (`YYYY/MM/<uuid><.ext>`), never taken from a request.
 * Every method throws `StorageUnavailableError` when the store cannot be reached.
 */
export interface ObjectStore {
  readonly kind: 'file' | 's3'
  /**
   * Streams `body` to `key`, holding at most a few megabytes in memory. When `body`
   * errors (the caller errors it when a size limit is passed) the write is abandoned and
   * nothing is left at `key`; the promise rejects with that error.
   */
  put(key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<StoredObject>
  /** The object's bytes, or bytes `start`..`end` inclusive; null when there is no such object. */
  get(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null>
  /** Removes the object; a missing one is fine. */
  remove(key: string): Promise<void>
  /** Every object in the store. */
  list(): AsyncIterable<ObjectInfo>
  /** Whether the store can be written right now. */
  probe(): Promise<boolean>
  /** Removes unfinished writes (a process that died mid-upload) last touched before `before`; returns how many. */
  removeUnfinished?(before: Date): Promise<number>
  /** A SigV4 presigned GET URL (S3 only) that downloads as `filename`. */
  presign?(key: string, expiresIn: number, download: { filename: string; contentType: string }): Promise<string>
}

/** How long a client waits before trying a store that refused: a full or failing disk is not freed in a second. */
export const STORAGE_RETRY_AFTER_SECONDS = 30

export class StorageUnavailableError extends ServiceUnavailableError {
  constructor(detail: Message) {
    super(say.unavailable({ detail }), STORAGE_RETRY_AFTER_SECONDS)
  }
}
