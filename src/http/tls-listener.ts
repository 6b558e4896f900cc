import type { AnyElysia } from 'elysia'
import type { Logger } from '../lib/logger'
import { readTlsFiles, TlsFileError, type TlsFiles, type TlsMaterial } from '../lib/tls-files'

export interface ListenOptions {
  port: number
  hostname: string
  reusePort: boolean
  maxRequestBodySize: number
}

/** Bun.serve's `tls` from the files' contents. */
export const tlsOptions = (material: TlsMaterial) => ({ cert: material.cert, key: material.key })

/** What the logs say of a certificate: enough to tell, after a renewal, that the new one is served. */
export const describeCertificate = (files: TlsFiles, material: TlsMaterial) => ({
  cert_file: files.certFile,
  names: material.names,
  not_after: material.notAfter,
  fingerprint: material.fingerprint,
})

/**
 * How long the replaced listener keeps accepting beside its successor. Connections the kernel queued on
 * it while this process was busy opening the new one (reading files, building the TLS context) would be
 * reset if it closed in that same turn of the event loop; after a turn it has accepted them.
 */
const HANDOVER_MS = 50

/**
 * Serving new certificate files without dropping the service. Bun cannot change a running
 * listener's certificate (`server.reload` takes handlers only), so a reload opens a second listener
 * on the same port with the files read anew and then stops the first: it accepts nothing more,
 * finishes the requests in flight and closes. Both listeners share the port (SO_REUSEPORT), so it is
 * never closed in between; a new connection meets either listener until the first one has stopped
 * accepting, and the new one only after. Files that cannot serve (half written, a key of another
 * certificate) are refused and the previous certificate stays.
 *
 * What the kernel still holds on the old listener when it closes (a connection whose first bytes, the TLS
 * ClientHello, have not been accepted yet) is reset, and that client has to retry: at most the connections of
 * one round trip, once per renewal. On Linux 5.14 and later `net.ipv4.tcp_migrate_req=1` (a per-network-
 * namespace setting: `docker run --sysctl net.ipv4.tcp_migrate_req=1`) hands them to the new listener instead.
 */
export function tlsReloader(app: AnyElysia, options: ListenOptions, files: TlsFiles, logger: Logger) {
  const draining = new Set<Promise<void>>()
  return {
    reload(): void {
      let material: TlsMaterial
      try {
        material = readTlsFiles(files)
      } catch (error) {
        if (!(error instanceof TlsFileError)) throw error
        logger.error('TLS files not reloaded: the previous certificate is still served', { error: error.message })
        return
      }
      const previous = app.server
      if (!previous) return
      try {
        // Elysia's listen serves the app as at start (its routes, its handler) and points app.server at the new listener
        app.listen({ ...options, port: previous.port, reusePort: true, tls: tlsOptions(material) })
      } catch (error) {
        logger.error('TLS files not reloaded: the previous certificate is still served', { error: String(error) })
        return
      }
      const stopped = Bun.sleep(HANDOVER_MS)
        .then(() => previous.stop(false))
        .then(
          () => {},
          (error: unknown) => logger.warn('the previous TLS listener did not stop cleanly', { error: String(error) }),
        )
      draining.add(stopped)
      void stopped.finally(() => draining.delete(stopped))
      logger.info('TLS certificate reloaded', describeCertificate(files, material))
    },
    /** Resolves when every listener a reload replaced has finished its requests. */
    async drained(): Promise<void> {
      await Promise.all(draining)
    },
  }
}
