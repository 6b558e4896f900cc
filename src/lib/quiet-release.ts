/*
 * Memory given back when the service goes quiet. JavaScriptCore collects when enough has been
 * allocated since its last collection, not when the work is done: after a busy spell the heap
 * keeps that spell's garbage (an employee read's promises, rows and strings), and an idle process
 * allocates nothing that would collect it: 10 MB or more. So once no request has come for
 * `quietMs` after at least `collectAfterRequests` of them, one full collection runs (about 20 ms,
 * while nothing waits).
 *
 * After start-up the release goes further: `Bun.shrink()` also drops the compiled code, most of
 * it the modules' top-level code, which never runs again (about 5 MB); what a request needs is
 * compiled again on its first use, as on a fresh start. Later quiet spells only collect: dropping
 * the code each time would make the first request after each one about 10 ms slower.
 */

export interface QuietReleaseOptions {
  /** how long without a request counts as quiet, ms */
  quietMs: number
  /** requests since the last release that make a collection worth its time */
  collectAfterRequests: number
  /** a full collection */
  collect(): void
  /** a full collection that also drops compiled code */
  shrink(): void
}

export interface QuietRelease {
  /** a request came */
  touch(): void
  /** looks at the time (ms, any monotonic clock); returns what it released, if anything */
  tick(now: number): 'shrink' | 'collect' | null
}

export function quietRelease(options: QuietReleaseOptions): QuietRelease {
  let requests = 0
  let seen = 0
  let quietSince: number | null = null
  let started = false
  return {
    touch() {
      requests++
    },
    tick(now) {
      if (quietSince === null || requests !== seen) {
        seen = requests
        quietSince = now
        return null
      }
      if (now - quietSince < options.quietMs) return null
      if (!started) {
        started = true
        requests = seen = 0
        options.shrink()
        return 'shrink'
      }
      if (requests < options.collectAfterRequests) return null
      requests = seen = 0
      options.collect()
      return 'collect'
    },
  }
}

export const QUIET_RELEASE: QuietReleaseOptions = {
  quietMs: 250,
  collectAfterRequests: 1000,
  collect: () => Bun.gc(true),
  // deprecated in Bun's types, without a successor: a collection where it is gone
  shrink: () => (typeof Bun.shrink === 'function' ? Bun.shrink() : Bun.gc(true)),
}

/** Looks every `quietMs / 2` (a release comes 1 to 1.5 × `quietMs` after the last request), on a timer that keeps no process alive. */
export function scheduleQuietRelease(release: QuietRelease, quietMs = QUIET_RELEASE.quietMs): () => void {
  const timer = setInterval(() => release.tick(performance.now()), quietMs / 2)
  timer.unref()
  return () => clearInterval(timer)
}
