import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** TLS_CERT_FILE and TLS_KEY_FILE: PEM files, read at start and again on SIGHUP. */
export interface TlsFiles {
  certFile: string
  keyFile: string
}

/** What Bun.serve's `tls` takes, with what the logs say about it. */
export interface TlsMaterial {
  cert: string
  key: string
  /** SHA-256 of the first certificate (the server's own), colon-separated hex, as browsers show it */
  fingerprint: string
  /** the names it is valid for (subjectAltName), or its subject when it has none */
  names: string
  notAfter: string
}

/** A TLS file that cannot serve: the message is one line naming the setting and the file. */
export class TlsFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TlsFileError'
  }
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied to this process',
  EISDIR: 'it is a folder, not a file',
}

function readPem(setting: string, path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    throw new TlsFileError(`Cannot read ${setting} ${path}: ${REASONS[code] ?? (error as Error).message}`)
  }
}

/**
 * Reads both files and checks, before any listener sees them, that the first is a certificate, the
 * second a private key, and that the key is the certificate's: a renewal that wrote only one of the
 * two is refused rather than served. A chain (the certificate, then its intermediates) is kept whole.
 */
export function readTlsFiles(files: TlsFiles): TlsMaterial {
  const cert = readPem('TLS_CERT_FILE', files.certFile)
  const key = readPem('TLS_KEY_FILE', files.keyFile)
  let certificate: X509Certificate
  try {
    if (!cert.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no certificate')
    certificate = new X509Certificate(cert)
  } catch {
    throw new TlsFileError(`TLS_CERT_FILE ${files.certFile} holds no PEM certificate (a "-----BEGIN CERTIFICATE-----" block)`)
  }
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey(key)
  } catch {
    throw new TlsFileError(`TLS_KEY_FILE ${files.keyFile} holds no unencrypted PEM private key (a "-----BEGIN … PRIVATE KEY-----" block)`)
  }
  if (!certificate.checkPrivateKey(privateKey))
    throw new TlsFileError(`TLS_KEY_FILE ${files.keyFile} is not the private key of the certificate in TLS_CERT_FILE ${files.certFile}`)
  return {
    cert,
    key,
    fingerprint: certificate.fingerprint256,
    names: certificate.subjectAltName ?? certificate.subject,
    notAfter: new Date(certificate.validTo).toISOString(),
  }
}
