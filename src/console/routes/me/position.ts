/** A position from the browser, or why there is none; never a made-up one. */
export type PositionResult =
  | { ok: true; latitude: number; longitude: number; accuracy: number }
  | { ok: false; reason: 'denied' | 'unavailable' | 'timeout' | 'unsupported' }

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
