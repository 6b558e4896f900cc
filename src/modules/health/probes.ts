import type { Database } from '../../db/client'

export type Probe = () => Promise<boolean>

export interface Probes {
  database: Probe
  storage: Probe
  /** seconds since the newest backup was taken (null: none yet); only when the service makes backups */
  backupAge?: () => Promise<number | null>
}

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
