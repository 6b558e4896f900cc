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
