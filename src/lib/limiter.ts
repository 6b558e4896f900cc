/**
 * Runs tasks at most `limit` at a time, the rest waiting in order of arrival. Unlike the sign-in
 * hash gate it refuses nothing: for work admitted as a whole (an import's password hashes) that
 * must only not take every core.
 */
export function createLimiter(limit: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      // a finishing task hands its place straight to the next waiter
      if (running < limit) running++
      else await new Promise<void>((resolve) => waiting.push(resolve))
      try {
        return await task()
      } finally {
        const next = waiting.shift()
        if (next) next()
        else running--
      }
    },
  }
}

export type Limiter = ReturnType<typeof createLimiter>
