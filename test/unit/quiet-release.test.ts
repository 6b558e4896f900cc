import { expect, test } from 'bun:test'
import { quietRelease } from '../../src/lib/quiet-release'

/** A release whose collections are only counted; `step(at, requests)` makes `requests` come, then ticks at `at`. */
function counted(options: { quietMs?: number; collectAfterRequests?: number } = {}) {
  const done: string[] = []
  const release = quietRelease({
    quietMs: options.quietMs ?? 250,
    collectAfterRequests: options.collectAfterRequests ?? 3,
    collect: () => done.push('collect'),
    shrink: () => done.push('shrink'),
  })
  const step = (at: number, requests = 0) => {
    for (let i = 0; i < requests; i++) release.touch()
    return release.tick(at)
  }
  return { done, step }
}

test.each([
  { name: 'the first tick only starts the clock', steps: [[0, 0]], expected: [null] },
  { name: 'quiet for less than quietMs: nothing yet', steps: [[0, 0], [249, 0]], expected: [null, null] },
  { name: 'after start-up, the first quiet spell drops the compiled code', steps: [[0, 0], [250, 0]], expected: [null, 'shrink'] },
  { name: 'requests during start-up (health checks) push it back', steps: [[0, 0], [200, 2], [400, 0], [450, 0]], expected: [null, null, null, 'shrink'] },
  { name: 'once shrunk, a quiet process is left alone', steps: [[0, 0], [250, 0], [500, 0], [10_000, 0]], expected: [null, 'shrink', null, null] },
  {
    name: 'a busy spell is collected once it has been quiet for quietMs',
    steps: [[0, 0], [250, 0], [300, 5], [400, 0], [549, 0], [550, 0], [900, 0]],
    expected: [null, 'shrink', null, null, null, 'collect', null],
  },
  { name: 'fewer requests than collectAfterRequests: not worth a collection', steps: [[0, 0], [250, 0], [300, 2], [1000, 0], [5000, 0]], expected: [null, 'shrink', null, null, null] },
  {
    name: 'requests are counted across quiet spells until one is collected',
    steps: [[0, 0], [250, 0], [300, 2], [1000, 0], [1100, 1], [1350, 0]],
    expected: [null, 'shrink', null, null, null, 'collect'],
  },
  {
    name: 'every request restarts the quiet spell',
    steps: [[0, 0], [250, 0], [300, 5], [500, 1], [700, 1], [900, 0], [1150, 0]],
    expected: [null, 'shrink', null, null, null, null, 'collect'],
  },
] as { name: string; steps: [number, number][]; expected: ('shrink' | 'collect' | null)[] }[])('$name', ({ steps, expected }) => {
  const { done, step } = counted()
  expect(steps.map(([at, requests]) => step(at, requests))).toEqual(expected)
  expect(done).toEqual(expected.filter((what) => what !== null))
})
