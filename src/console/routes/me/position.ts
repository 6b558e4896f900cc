/** A position from the browser, or why there is none; never a made-up one. */
export type PositionResult =
  | { ok: true; latitude: number; longitude: number; accuracy: number }
  | { ok: false; reason: 'denied' | 'unavailable' | 'timeout' | 'unsupported' }

/**
 * Whether the page may ask for a position at all: browsers give one only to secure pages (https, or
 * localhost), and on others refuse as if the user had said no, which no setting on the phone can change.
 */
export const positionNeedsHttps = (): boolean => !window.isSecureContext

/** The address to open instead: this host over https (the service serves TLS on the same port, or a proxy does). */
export const secureAddress = (): string => `https://${window.location.host}`

/**
 * Asks the browser for a fresh, high-accuracy fix (no cached position: a fix from before the walk
 * to the office would be refused or, worse, accepted wrongly).
 */
export function currentPosition(timeoutMs = 20_000): Promise<PositionResult> {
  if (!('geolocation' in navigator)) return Promise.resolve({ ok: false, reason: 'unsupported' })
  return new Promise((resolve) =>
    navigator.geolocation.getCurrentPosition(
      (position) =>
        resolve({ ok: true, latitude: position.coords.latitude, longitude: position.coords.longitude, accuracy: position.coords.accuracy }),
      (error) =>
        resolve({
          ok: false,
          reason: error.code === error.PERMISSION_DENIED ? 'denied' : error.code === error.TIMEOUT ? 'timeout' : 'unavailable',
        }),
      { enableHighAccuracy: true, maximumAge: 0, timeout: timeoutMs },
    ),
  )
}
