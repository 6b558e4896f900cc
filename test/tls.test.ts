import { afterAll, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { copyFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { connect } from 'node:tls'
import { ADMIN_PASSWORD, tempDir } from './helpers'
import { call, signIn, startServer, type ServerProcess } from './server-process'
import { makeCertificate, servedFingerprint, TEST_HOST } from './tls-certificates'

/*
 * HTTPS served by the service itself (CONTRACT §23, issue 26): TLS_CERT_FILE and TLS_KEY_FILE name
 * PEM files made here with openssl; SIGHUP reads them again. Real server processes, certificates
 * compared by fingerprint on new connections.
 */

const SRC = join(import.meta.dir, '..', 'src')
const dirs: string[] = []
const servers: ServerProcess[] = []
afterAll(async () => {
  for (const server of servers) if (server.proc.exitCode === null) await server.kill()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const newDir = () => {
  const dir = tempDir('workforce-tls-')
  dirs.push(dir)
  return dir
}

/** The server's files in `dir`, serving the certificate copied to cert.pem / key.pem (the paths a renewal overwrites). */
function filesOf(dir: string) {
  return {
    DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    ADMIN_PASSWORD,
    TLS_CERT_FILE: join(dir, 'cert.pem'),
    TLS_KEY_FILE: join(dir, 'key.pem'),
  }
}
function install(dir: string, certificate: { certFile: string; keyFile: string }) {
  copyFileSync(certificate.certFile, join(dir, 'cert.pem'))
  copyFileSync(certificate.keyFile, join(dir, 'key.pem'))
}

const insecure = { tls: { rejectUnauthorized: false } }
const PARALLEL = 4
const CUT_IN_HANDSHAKE = 'reset before the TLS handshake ended'

/**
 * GET /health on a new TLS connection: 200, or what went wrong, telling a connection refused (the port
 * closed), one reset before its handshake ended (nothing was sent yet) and a request sent but not answered.
 */
function healthOnNewConnection(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    let secure = false
    let answer = ''
    const socket = connect({ host: '127.0.0.1', port, servername: TEST_HOST, rejectUnauthorized: false }, () => {
      secure = true
      socket.write(`GET /health HTTP/1.1\r\nHost: ${TEST_HOST}\r\nConnection: close\r\n\r\n`)
    })
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve('refused')
    })
    socket.on('close', () => resolve(!secure ? CUT_IN_HANDSHAKE : answer.startsWith('HTTP/1.1 200') ? 200 : `answered ${JSON.stringify(answer.slice(0, 60))}`))
  })
}

/** Waits until `server` has logged a line with `message` (errors go to stderr); gives that line. */
async function logged(server: ServerProcess, message: string, timeout = 15_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeout
  for (;;) {
    for (const line of [...server.output, ...server.errors]) {
      try {
        const parsed = JSON.parse(line)
        if (parsed.message === message) return parsed
      } catch {
        // not a log line
      }
    }
    if (Date.now() > deadline) throw new Error(`"${message}" was not logged: ${[...server.output, ...server.errors].join('\n')}`)
    await Bun.sleep(50)
  }
}

async function eventuallyTrue(probe: () => boolean, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('not so in time')
    await Bun.sleep(20)
  }
}

interface Exit {
  code: number
  stdout: string
  stderr: string
}
async function runToExit(script: string, env: Record<string, string>): Promise<Exit> {
  const proc = Bun.spawn(['bun', join(SRC, script)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000)
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  clearTimeout(timer)
  return { code, stdout, stderr }
}

describe('HTTPS with TLS_CERT_FILE and TLS_KEY_FILE', () => {
  test('serves the certificate on PORT, links under https://localhost:PORT by default, and the container health check passes over https', async () => {
    const dir = newDir()
    const first = makeCertificate(dir, 'first')
    install(dir, first)
    const server = await startServer(filesOf(dir))
    servers.push(server)
    expect(server.base).toBe(`https://127.0.0.1:${server.port}`)
    const listening = server.output.map((line) => JSON.parse(line)).find((line) => line.message === 'Workforce is listening')
    expect(listening).toMatchObject({ url: `https://127.0.0.1:${server.port}`, docs: `https://localhost:${server.port}/swagger` })
    expect(await logged(server, 'serving HTTPS')).toMatchObject({ cert_file: join(dir, 'cert.pem'), names: 'DNS:hr.example.test', fingerprint: first.fingerprint })

    expect(await servedFingerprint(server.port)).toBe(first.fingerprint)
    const token = await signIn(server.base, 'admin', ADMIN_PASSWORD)
    const me = await call(server.base, 'GET', '/api/v1/auth/me', { token })
    expect(me.status).toBe(200)
    expect(me.body.data.user.username).toBe('admin')
    // plain http on that port gets no answer from the service
    expect(await fetch(`http://127.0.0.1:${server.port}/health`).then((reply) => reply.status, () => 'refused')).not.toBe(200)

    const check = await runToExit('health-check.ts', { PORT: String(server.port), TLS_CERT_FILE: join(dir, 'cert.pem'), TLS_KEY_FILE: join(dir, 'key.pem') })
    expect(check).toEqual({ code: 0, stdout: '', stderr: '' })
    // without the TLS settings the probe asks over http, and fails
    const plain = await runToExit('health-check.ts', { PORT: String(server.port) })
    expect(plain.code).toBe(1)
    expect(plain.stderr).toStartWith(`http://127.0.0.1:${server.port}/health: `)
    expect(await server.stop()).toBe(0)
  }, 60_000)

  test('SIGHUP: new connections get the new certificate; a download in flight finishes; the port never closes', async () => {
    const dir = newDir()
    const first = makeCertificate(dir, 'first')
    const second = makeCertificate(dir, 'second')
    install(dir, first)
    const server = await startServer(filesOf(dir))
    servers.push(server)
    const token = await signIn(server.base, 'admin', ADMIN_PASSWORD)

    // a file large enough that its download is still under way across the reload
    const content = randomBytes(12 * 1024 * 1024).toString('hex')
    const form = new FormData()
    form.append('file', new File([content], 'big.txt', { type: 'text/plain' }))
    const uploaded = await fetch(`${server.base}/api/v1/storage/upload`, { ...insecure, method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })
    expect(uploaded.status).toBe(201)
    const fileId = ((await uploaded.json()) as { data: { id: string } }).data.id
    // a raw connection that stops reading after the first bytes: the server cannot finish before the reload
    const download = connect({ host: '127.0.0.1', port: server.port, servername: TEST_HOST, rejectUnauthorized: false })
    const received: Buffer[] = []
    let holding = true
    const ended = new Promise<void>((resolve, reject) => {
      download.on('close', () => resolve())
      download.on('error', reject)
    })
    download.on('data', (chunk: Buffer) => {
      received.push(chunk)
      if (holding) download.pause()
    })
    download.write(
      `GET /api/v1/storage/files/${fileId}/content HTTP/1.1\r\nHost: ${TEST_HOST}\r\nAuthorization: Bearer ${token}\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`,
    )
    await eventuallyTrue(() => received.length > 0)

    expect(await servedFingerprint(server.port)).toBe(first.fingerprint)
    install(dir, second)
    // requests on new connections, four at a time, all through the reload
    let probing = true
    const statuses: (number | string)[] = []
    const probes = (async () => {
      while (probing) statuses.push(...(await Promise.all(Array.from({ length: PARALLEL }, () => healthOnNewConnection(server.port)))))
    })()
    await Bun.sleep(300)
    server.proc.kill('SIGHUP')
    expect(await logged(server, 'TLS certificate reloaded')).toMatchObject({ cert_file: join(dir, 'cert.pem'), fingerprint: second.fingerprint })
    await Bun.sleep(300)
    probing = false
    await probes

    expect(await servedFingerprint(server.port)).toBe(second.fingerprint)
    expect(await servedFingerprint(server.port)).toBe(second.fingerprint)
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(8)
    // the port never closed, and every request sent was answered; only a connection that reached the old
    // listener in the moment it closed, before its handshake ended, may be cut (src/http/tls-listener.ts)
    expect(statuses.filter((status) => status !== 200 && status !== CUT_IN_HANDSHAKE)).toEqual([])
    expect(statuses.filter((status) => status === CUT_IN_HANDSHAKE).length).toBeLessThanOrEqual(PARALLEL)

    // the download begun before the reload, on the old certificate, finishes whole
    expect(download.getPeerCertificate().fingerprint256).toBe(first.fingerprint)
    const before = Buffer.concat(received).length
    expect(before).toBeLessThan(content.length)
    holding = false
    download.resume()
    await ended
    const whole = Buffer.concat(received)
    const headerEnd = whole.indexOf('\r\n\r\n')
    expect(whole.subarray(0, headerEnd).toString()).toStartWith('HTTP/1.1 200')
    const body = whole.subarray(headerEnd + 4)
    expect(body.length).toBe(content.length)
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'))

    // the process still stops cleanly, as a whole
    expect(await server.stop()).toBe(0)
  }, 90_000)

  test('SIGHUP with files that cannot serve keeps the previous certificate and logs why', async () => {
    const dir = newDir()
    const first = makeCertificate(dir, 'first')
    const other = makeCertificate(dir, 'other')
    install(dir, first)
    const server = await startServer(filesOf(dir))
    servers.push(server)

    // a renewal that wrote the new certificate but not yet its key
    copyFileSync(other.certFile, join(dir, 'cert.pem'))
    server.proc.kill('SIGHUP')
    const refused = await logged(server, 'TLS files not reloaded: the previous certificate is still served')
    expect(refused.error).toBe(`TLS_KEY_FILE ${join(dir, 'key.pem')} is not the private key of the certificate in TLS_CERT_FILE ${join(dir, 'cert.pem')}`)
    expect(await servedFingerprint(server.port)).toBe(first.fingerprint)
    expect(await healthOnNewConnection(server.port)).toBe(200)
    expect(server.output.some((line) => line.includes('TLS certificate reloaded'))).toBe(false)
    expect(await server.stop()).toBe(0)
  }, 60_000)

  test('SIGHUP without TLS changes nothing and says so', async () => {
    const dir = newDir()
    const { TLS_CERT_FILE: _cert, TLS_KEY_FILE: _key, ...plain } = filesOf(dir)
    const server = await startServer(plain)
    servers.push(server)
    expect(server.base).toBe(`http://127.0.0.1:${server.port}`)
    server.proc.kill('SIGHUP')
    await logged(server, 'SIGHUP: nothing to reload, the service serves plain HTTP (TLS_CERT_FILE and TLS_KEY_FILE are unset)')
    expect((await fetch(`${server.base}/health`)).status).toBe(200)
    expect(await server.stop()).toBe(0)
  }, 60_000)
})

describe('TLS settings that cannot serve stop the start with one line naming the file', () => {
  const dir = newDir()
  const good = makeCertificate(dir, 'good')
  const other = makeCertificate(dir, 'other')
  const garbage = join(dir, 'garbage.pem')
  writeFileSync(garbage, 'not a PEM file\n')
  const base = { DATABASE_URL: `file:${join(dir, 'workforce.db')}`, STORAGE_URL: `file:${join(dir, 'files')}` }
  const missing = join(dir, 'missing.pem')

  test.each([
    [
      'a certificate without its key',
      { TLS_CERT_FILE: good.certFile },
      'Invalid setting TLS_KEY_FILE: TLS_CERT_FILE is set, so TLS_KEY_FILE must name the PEM file of its private key: set both for HTTPS, or neither',
    ],
    [
      'a key without its certificate',
      { TLS_KEY_FILE: good.keyFile },
      'Invalid setting TLS_CERT_FILE: TLS_KEY_FILE is set, so TLS_CERT_FILE must name the PEM file of its certificate: set both for HTTPS, or neither',
    ],
    ['a certificate file that is not there', { TLS_CERT_FILE: missing, TLS_KEY_FILE: good.keyFile }, `Cannot read TLS_CERT_FILE ${missing}: no such file`],
    ['a key file that is a folder', { TLS_CERT_FILE: good.certFile, TLS_KEY_FILE: dir }, `Cannot read TLS_KEY_FILE ${dir}: it is a folder, not a file`],
    [
      'the files swapped',
      { TLS_CERT_FILE: good.keyFile, TLS_KEY_FILE: good.certFile },
      `TLS_CERT_FILE ${good.keyFile} holds no PEM certificate (a "-----BEGIN CERTIFICATE-----" block)`,
    ],
    [
      'a key file that holds no key',
      { TLS_CERT_FILE: good.certFile, TLS_KEY_FILE: garbage },
      `TLS_KEY_FILE ${garbage} holds no unencrypted PEM private key (a "-----BEGIN … PRIVATE KEY-----" block)`,
    ],
    [
      'the key of another certificate',
      { TLS_CERT_FILE: good.certFile, TLS_KEY_FILE: other.keyFile },
      `TLS_KEY_FILE ${other.keyFile} is not the private key of the certificate in TLS_CERT_FILE ${good.certFile}`,
    ],
  ])('%s', async (_, env, message) => {
    const exit = await runToExit('index.ts', { ...base, ...env })
    expect(exit).toEqual({ code: 1, stdout: '', stderr: `${message}\n` })
  }, 30_000)
})
