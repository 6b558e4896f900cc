import type { DiskFree, WriteVerdict } from './probes'

export type HealthStatus = 'ok' | 'degraded' | 'down'

export interface Findings {
  read: boolean
  write: WriteVerdict
  storage: boolean
  disk: DiskFree | null
  /** 0: free space never degrades */
  minFreeBytes: number
}

export interface Verdict {
  status: HealthStatus
  /** for anyone: what is wrong, in words and figures, without paths or error texts */
  message: string
  /** for administrators: the details an operator acts on */
  warnings: string[]
}

const mib = (bytes: number) => `${Math.floor(bytes / 1024 ** 2)} MiB`

/**
 * `down` when the database does not answer a read; `degraded` when a write cannot be made (the
 * probe failed or ran out of time), the file store does not answer, or a data location has less
 * free space than the threshold; else `ok` (CONTRACT §25).
 */
export function judge({ read, write, storage, disk, minFreeBytes }: Findings): Verdict {
  const problems: string[] = []
  const warnings: string[] = []
  if (!read) problems.push('The database does not answer')
  if (write.state !== 'up') {
    problems.push(write.state === 'down' ? 'Database writes fail; changes answer 503' : 'Database writes do not finish in time; changes may answer 503')
    warnings.push(`The database write probe failed: ${write.problem ?? write.state}`)
  }
  if (!storage) problems.push('The file store does not answer; file endpoints answer 503')
  if (disk !== null && disk.bytes < minFreeBytes) {
    problems.push(`Free disk space is ${mib(disk.bytes)}, under the ${mib(minFreeBytes)} of HEALTH_MIN_FREE_MB; free some before writes fail`)
    warnings.push(`${disk.folder} has ${disk.bytes} bytes free, under HEALTH_MIN_FREE_MB (${minFreeBytes} bytes)`)
  }
  const status: HealthStatus = !read ? 'down' : problems.length > 0 ? 'degraded' : 'ok'
  return { status, message: problems.length > 0 ? problems.join('. ') : 'healthy', warnings }
}
