import { describe, expect, test } from 'bun:test'
import { memoryBudget } from '../../src/lib/memory'

const MB = 1024 * 1024

/** A process whose resident memory the test sets, and whose collections it counts (each frees what `freed` says). */
function processLike(start: number) {
  const state = { resident: start, collections: 0, freed: 0 }
  return {
    state,
    resident: () => state.resident,
    collect: () => {
      state.collections++
      state.resident -= state.freed
    },
  }
}

describe('memoryBudget', () => {
  test('no collection while the growth since the start stays within the budget, the budget itself included', () => {
    const p = processLike(200 * MB)
    const check = memoryBudget(16 * MB, p.resident, p.collect)
    for (const resident of [201, 210, 216]) {
      p.state.resident = resident * MB
      check()
    }
    expect(p.state.collections).toBe(0)
  })

  test('one collection once the growth passes the budget; the next is counted from after it', () => {
    const p = processLike(200 * MB)
    const check = memoryBudget(16 * MB, p.resident, p.collect)
    p.state.resident = 216 * MB + 1
    check()
    expect(p.state.collections).toBe(1)
    // resident memory rarely shrinks after a collection: the budget is measured from where it stands
    p.state.resident = 230 * MB
    check()
    expect(p.state.collections).toBe(1)
    p.state.resident = 216 * MB + 1 + 16 * MB + 1
    check()
    expect(p.state.collections).toBe(2)
  })

  test('memory given back by a collection lowers the mark the next growth is measured from', () => {
    const p = processLike(100 * MB)
    const check = memoryBudget(10 * MB, p.resident, p.collect)
    p.state.freed = 30 * MB
    p.state.resident = 140 * MB
    check()
    expect(p.state).toEqual({ resident: 110 * MB, collections: 1, freed: 30 * MB })
    p.state.resident = 120 * MB
    check()
    expect(p.state.collections).toBe(1)
    p.state.resident = 121 * MB
    check()
    expect(p.state.collections).toBe(2)
  })
})
