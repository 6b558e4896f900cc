import { AppError } from '../../http/errors'
import { formatSize } from '../../lib/size-format'
import { say } from './messages'

const bytes = (n: number) => say.bytes({ size: formatSize(n), n })

/** 507: the account's files and this one together would pass UPLOAD_QUOTA. */
export class QuotaExceededError extends AppError {
  constructor(used: number, quota: number) {
    super(507, say.overQuota({ used: bytes(used), quota: bytes(quota) }))
  }
}

/**
 * One request's share of an account's quota while its files stream: bytes are taken as they
 * arrive and given back when a file is not kept. `used` is what the account's stored files
 * take when the request starts; a quota of 0 means no limit.
 */
export interface UploadBudget {
  /** Counts `bytes` more of a file that has passed `fileSoFar` bytes; throws QuotaExceededError when they do not fit. */
  take(bytes: number, fileSoFar: number): void
  /** Gives back what a file took that is not kept. */
  release(bytes: number): void
}

export function uploadBudget(used: number, quota: number): UploadBudget {
  let taken = 0
  return {
    take(bytes, fileSoFar) {
      if (quota > 0 && used + taken + bytes > quota) throw new QuotaExceededError(used + taken - fileSoFar, quota)
      taken += bytes
    },
    release(bytes) {
      taken -= bytes
    },
  }
}

/**
 * Which files, in order, fit in the quota after `used`: each that fits counts for the next;
 * each that does not gets its error. A quota of 0 means no limit.
 */
export function allot<T extends { size: number }>(used: number, quota: number, files: T[]): { kept: T[]; refused: Map<T, QuotaExceededError> } {
  const kept: T[] = []
  const refused = new Map<T, QuotaExceededError>()
  let total = used
  for (const file of files) {
    if (quota > 0 && total + file.size > quota) refused.set(file, new QuotaExceededError(total, quota))
    else {
      kept.push(file)
      total += file.size
    }
  }
  return { kept, refused }
}
