/**
 * Values loaded on demand and kept for `ttlMs` (real time, not the injected clock: it
 * bounds how stale another instance's change may look). Concurrent misses share one
 * load, a failed load is not kept, and a load that was running when the cache was
 * cleared is not kept either, so a change is never masked by an older read.
 */
export interface TtlCache<K, V> {
  get(key: K, load: () => Promise<V>): Promise<V>
  delete(key: K): void
  clear(): void
}

export function ttlCache<K, V>(ttlMs: number, maxEntries = 10_000): TtlCache<K, V> {
  const entries = new Map<K, { until: number; value: Promise<V> }>()
  let generation = 0
  return {
    get(key, load) {
      const now = performance.now()
      const hit = entries.get(key)
      if (hit && hit.until > now) return hit.value
      const startedIn = generation
      const value = load()
      value.then(
        () => {
          if (generation !== startedIn && entries.get(key)?.value === value) entries.delete(key)
        },
        () => {
          if (entries.get(key)?.value === value) entries.delete(key)
        },
      )
      if (entries.size >= maxEntries) entries.clear()
      entries.set(key, { until: now + ttlMs, value })
      return value
    },
    delete(key) {
      generation++
      entries.delete(key)
    },
    clear() {
      generation++
      entries.clear()
    },
  }
}
