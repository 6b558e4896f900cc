import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/config'
import { archiveName } from '../../src/modules/backups/retention'

describe('backup settings', () => {
  test('BACKUP_DIR defaults to "backups" beside the database file; the schedule is off and 7 are kept', () => {
    expect(loadConfig({}).backup).toEqual({ dir: 'data/backups', intervalHours: 0, keep: 7 })
    expect(loadConfig({ DATABASE_URL: 'file:/data/workforce.db', STORAGE_URL: 'file:/data/files' }).backup.dir).toBe('/data/backups')
    expect(loadConfig({ DATABASE_URL: 'http://127.0.0.1:8081' }).backup.dir).toBe('data/backups')
    expect(loadConfig({ BACKUP_DIR: '/srv/backups', BACKUP_INTERVAL_HOURS: '24', BACKUP_KEEP: '14' }).backup).toEqual({
      dir: '/srv/backups',
      intervalHours: 24,
      keep: 14,
    })
  })

  const bad: [Record<string, string>, string][] = [
    [{ BACKUP_INTERVAL_HOURS: '1.5' }, 'Invalid setting BACKUP_INTERVAL_HOURS: expected a whole number, got "1.5"'],
    [{ BACKUP_INTERVAL_HOURS: '-1' }, 'Invalid setting BACKUP_INTERVAL_HOURS: expected a whole number, got "-1"'],
    [{ BACKUP_INTERVAL_HOURS: '9000' }, 'Invalid setting BACKUP_INTERVAL_HOURS: must be between 0 and 8760, got 9000'],
    [{ BACKUP_KEEP: '0' }, 'Invalid setting BACKUP_KEEP: must be between 1 and 10000, got 0'],
    [{ BACKUP_KEEP: 'all' }, 'Invalid setting BACKUP_KEEP: expected a whole number, got "all"'],
    [
      { DATABASE_URL: 'libsql://db.example.internal', BACKUP_INTERVAL_HOURS: '24' },
      "Invalid setting BACKUP_INTERVAL_HOURS: scheduled backups copy the embedded database file, and DATABASE_URL names a libSQL server: leave it 0 and use the server's own backups",
    ],
    [{ BACKUP_DIR: 'data/files/backups' }, 'Invalid setting BACKUP_DIR: "data/files/backups" is inside the file store (STORAGE_URL=file:data/files); give a folder outside it'],
    [{ STORAGE_URL: 'file:/srv/wf', BACKUP_DIR: '/srv/wf' }, 'Invalid setting BACKUP_DIR: "/srv/wf" is inside the file store (STORAGE_URL=file:/srv/wf); give a folder outside it'],
  ]
  test.each(bad)('%p → %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(message)
  })

  test('a folder beside the file store, or a libSQL server with the schedule off, is fine', () => {
    expect(loadConfig({ BACKUP_DIR: 'data/files-backups' }).backup.dir).toBe('data/files-backups')
    expect(loadConfig({ DATABASE_URL: 'libsql://db.example.internal', BACKUP_INTERVAL_HOURS: '0' }).backup.intervalHours).toBe(0)
  })

  test('archives are named by the UTC second of their snapshot, so names sort in time order', () => {
    expect(archiveName(new Date('2024-03-15T09:30:00.999Z'))).toBe('workforce-backup-20240315T093000Z.tar.gz')
    const names = ['2023-12-31T23:59:59Z', '2024-01-01T00:00:00Z', '2024-10-01T00:00:00Z'].map((at) => archiveName(new Date(at)))
    expect([...names].sort()).toEqual(names)
  })
})
