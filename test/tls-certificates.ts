import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { connect } from 'node:tls'

/** The name the tests' certificates are made for; Chromium maps it to 127.0.0.1. */
export const TEST_HOST = 'hr.example.test'

export interface TestCertificate {
  certFile: string
  keyFile: string
  /** SHA-256, colon-separated hex (as X509Certificate and getPeerCertificate give it) */
  fingerprint: string
}

/** A self-signed P-256 certificate for `host`, valid two days, made with openssl as an administrator would. */
export function makeCertificate(dir: string, name: string, host = TEST_HOST): TestCertificate {
  const certFile = join(dir, `${name}.crt`)
  const keyFile = join(dir, `${name}.key`)
  const made = Bun.spawnSync(
    ['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`, '-days', '2', '-keyout', keyFile, '-out', certFile],
    { stdout: 'pipe', stderr: 'pipe' },
  )
  if (made.exitCode !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr.toString()}`)
  return { certFile, keyFile, fingerprint: new X509Certificate(readFileSync(certFile)).fingerprint256 }
}

/** The fingerprint of the certificate a new TLS connection to 127.0.0.1:`port` is served (SNI `host`). */
export function servedFingerprint(port: number, host = TEST_HOST): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: host, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256)
      socket.end()
    })
    socket.on('error', reject)
  })
}
