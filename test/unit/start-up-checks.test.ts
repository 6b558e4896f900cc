import { describe, expect, test } from 'bun:test'
import { healthUrl } from '../../src/health-check'
import { dataLocationProblem, listenProblem, StartUpError, type ProcessIdentity } from '../../src/lib/start-up-checks'

const host: ProcessIdentity = { uid: 1000, gid: 1000, inContainer: false }
const container: ProcessIdentity = { uid: 1000, gid: 1000, inContainer: true }

describe('the message for a data location that cannot be written', () => {
  test.each([
    [
      'a folder of another owner, in a container: the host folder of a bind mount or the container user',
      ['DATABASE_URL', '/data', true, 'EACCES', container],
      'Cannot write to /data (the folder of DATABASE_URL): permission denied to this process, which runs as uid 1000, gid 1000. ' +
        'Fix: give that folder to 1000:1000 (for a bind mount such as -v ./data:/data, on the host: sudo chown -R 1000:1000 ./data), ' +
        "or run the container as the folder's owner (docker run --user <uid>:<gid>).",
    ],
    [
      'a folder of another owner, on the host: chown that folder',
      ['STORAGE_URL', '/srv/workforce', true, 'EPERM', { uid: 1001, gid: 50, inContainer: false }],
      'Cannot write to /srv/workforce (the folder of STORAGE_URL): permission denied to this process, which runs as uid 1001, gid 50. ' +
        "Fix: sudo chown -R 1001:50 /srv/workforce, or run the service as the folder's owner.",
    ],
    [
      'a database file of another owner: the file is named, its folder is the one to chown',
      ['DATABASE_URL', '/srv/workforce/workforce.db-wal', false, 'EACCES', host],
      'Cannot write to /srv/workforce/workforce.db-wal (a file of DATABASE_URL): permission denied to this process, which runs as uid 1000, gid 1000. ' +
        "Fix: sudo chown -R 1000:1000 /srv/workforce, or run the service as the folder's owner.",
    ],
    [
      'a read-only mount in a container',
      ['DATABASE_URL', '/data', true, 'EROFS', container],
      'Cannot write to /data (the folder of DATABASE_URL): the file system is read-only. Mount a writable volume there (docker run -v workforce-data:/data).',
    ],
    [
      'a read-only file system on the host',
      ['STORAGE_URL', '/mnt/files', true, 'EROFS', host],
      'Cannot write to /mnt/files (the folder of STORAGE_URL): the file system is read-only. Point STORAGE_URL at a writable folder.',
    ],
    [
      'a file where a folder should be',
      ['STORAGE_URL', '/srv/files', true, 'ENOTDIR', host],
      'Cannot create /srv/files (the folder of STORAGE_URL): part of that path is a file, not a folder. Point STORAGE_URL at a folder, or move the file away.',
    ],
    [
      'a full disk',
      ['DATABASE_URL', '/data', true, 'ENOSPC', container],
      'Cannot write to /data (the folder of DATABASE_URL): no space left on the device (ENOSPC). Free some space or point DATABASE_URL elsewhere.',
    ],
    [
      'any other cause: its code and who tried',
      ['DATABASE_URL', '/data', true, 'EIO', host],
      'Cannot write to /data (the folder of DATABASE_URL): EIO, as uid 1000, gid 1000. Check that the folder can be created and written.',
    ],
  ] as const)('%s', (_, [setting, path, isFolder, code, identity], message) => {
    expect(dataLocationProblem(setting, path, isFolder, code, identity)).toBe(message)
  })
})

describe('the message for a port that cannot be listened on', () => {
  const failure = (code: string) => Object.assign(new Error(`${code}: listen`), { code })

  test.each([
    [
      'served by another process, sharing not asked for: names the port and REUSE_PORT',
      '0.0.0.0', 8080, false, 'EADDRINUSE',
      'Port 8080 on 0.0.0.0 is already served by another process. Stop it or choose another PORT; ' +
        'to run several instances of Workforce on one port (all on the same DATABASE_URL and STORAGE_URL), start each with REUSE_PORT=true.',
    ],
    [
      'served by a process that does not share it, sharing asked for',
      '127.0.0.1', 9000, true, 'EADDRINUSE',
      'Port 9000 on 127.0.0.1 is already served by a process that does not share it: every instance sharing a port needs REUSE_PORT=true. ' +
        'Stop that process or choose another PORT.',
    ],
    [
      'a privileged port',
      '0.0.0.0', 80, false, 'EACCES',
      'Port 80 on 0.0.0.0 needs a privilege this process does not have (ports below 1024). ' +
        'Choose a PORT of 1024 or above and publish it as you need (docker run -p 80:8080), or put a reverse proxy in front.',
    ],
    [
      'an address of another machine',
      '10.9.8.7', 8080, false, 'EADDRNOTAVAIL',
      'HOST 10.9.8.7 is not an address of this machine. Give one of its addresses, 0.0.0.0 (every IPv4 address) or :: (every address).',
    ],
  ] as const)('%s', (_, host, port, shared, code, message) => {
    const problem = listenProblem(host, port, shared, failure(code))
    expect(problem).toBeInstanceOf(StartUpError)
    expect(problem?.message).toBe(message)
  })

  test('any other failure is not one of these: it is thrown as it is', () => {
    expect(listenProblem('0.0.0.0', 8080, false, failure('EMFILE'))).toBeNull()
    expect(listenProblem('0.0.0.0', 8080, false, new TypeError('bad options'))).toBeNull()
  })
})

describe('where the container health check asks', () => {
  test.each([
    ['0.0.0.0', 8080, 'http://127.0.0.1:8080/health'],
    ['::', 8080, 'http://[::1]:8080/health'],
    ['[::]', 9000, 'http://[::1]:9000/health'],
    ['127.0.0.1', 3000, 'http://127.0.0.1:3000/health'],
    ['10.1.2.3', 8080, 'http://10.1.2.3:8080/health'],
    ['fd00::5', 8080, 'http://[fd00::5]:8080/health'],
    ['[fd00::5]', 8080, 'http://[fd00::5]:8080/health'],
    ['hr.internal', 80, 'http://hr.internal:80/health'],
  ])('HOST=%s PORT=%d: %s', (host, port, url) => {
    expect(healthUrl(host, port)).toBe(url)
  })

  test('over https when the service serves TLS', () => {
    expect(healthUrl('0.0.0.0', 8443, true)).toBe('https://127.0.0.1:8443/health')
    expect(healthUrl('::', 8443, true)).toBe('https://[::1]:8443/health')
  })
})
