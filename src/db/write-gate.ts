import { now } from './guard'
import { busyError } from './unavailable'

/**
 * At most `slots` writes of this process at once; the others wait in order of arrival, each until
 * its deadline, and then give up as busy (503) without having sent anything.
 */
export function createWriteGate(slots: number) {
  let free = slots
  const waiting = new Set<() => void>()

  const leave = () => {
    // a leaving writer hands its slot straight to the longest waiting one
    const next = waiting.values().next()
    if (next.done) free++
    else {
      waiting.delete(next.value)
      next.value()
    }
  }

  return {
    /** Waits for a slot until `deadline` (performance.now() time); the answer gives it back, once. */
    async enter(deadline: number): Promise<() => void> {
      if (free > 0) free--
      else
        await new Promise<void>((resolve, reject) => {
          const admit = () => {
            clearTimeout(timer)
            resolve()
          }
          const timer = setTimeout(() => {
            waiting.delete(admit)
            reject(busyError())
          }, Math.max(0, deadline - now()))
          waiting.add(admit)
        })
      let left = false
      return () => {
        if (left) return
        left = true
        leave()
      }
    },
    /** writes holding a slot, and writes waiting for one */
    get load() {
      return { inFlight: slots - free, waiting: waiting.size }
    },
  }
}

export type WriteGate = ReturnType<typeof createWriteGate>
