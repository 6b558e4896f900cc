import type { Message } from '../../lib/messages'
import { say } from './messages'
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
  message: Message
  /** for administrators: the details an operator acts on */
  warnings: Message[]
}

const mib = (bytes: number) => `${Math.floor(bytes / 1024 ** 2)} MiB`

/**
 * `down` when the database does not answer a read; `degraded` when a write cannot be made (the
 * probe failed or ran out of time), the file store does not answer, or a data location has less
 * free space than the threshold; else `ok` (CONTRACT §25).
 */
export function judge({ read, write, storage, disk, minFreeBytes }: Findings): Verdict {
  const problems: Message[] = []
  const warnings: Message[] = []
  if (!read) problems.push(say.databaseSilent())
  if (write.state !== 'up') {
    problems.push(write.state === 'down' ? say.writesFail() : say.writesSlow())
    warnings.push(say.writeProbeFailed({ problem: write.problem ?? write.state }))
  }
  if (!storage) problems.push(say.storeSilent())
  if (disk !== null && disk.bytes < minFreeBytes) {
    problems.push(say.diskLow({ free: mib(disk.bytes), min: mib(minFreeBytes) }))
    warnings.push(say.folderLow({ folder: disk.folder, bytes: disk.bytes, min: minFreeBytes }))
  }
  const status: HealthStatus = !read ? 'down' : problems.length > 0 ? 'degraded' : 'ok'
  // "a. b. c", in the order found
  const message = problems.reduceRight<Message | null>((rest, first) => (rest ? say.then({ first, rest }) : first), null)
  return { status, message: message ?? say.healthy(), warnings }
}
