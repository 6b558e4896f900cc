import { describe, expect, test } from 'bun:test'
import { memoryBudget } from '../../src/lib/memory'

const MB = 1024 * 1024

/** A process whose resident memory the test sets, and whose collections it records in order (each frees what `freed` says). */
function processLike(start: number) {
  const state = { resident: start, collections: [] as ('young' | 'full')[], freed: 0, kept: 0 }
  const collect = (kind: 'young' | 'full') => () => {
    state.collections.push(kind)
    state.resident -= state.freed
  }
  return { state, resident: () => state.resident, collector: { young: collect('young'), full: collect('full') }, kept: () => state.kept }
}

describe('memoryBudget', () => {
  test('no collection while the growth since the start stays within the budget, the budget itself included', () => {
    const p = processLike(200 * MB)
    const check = memoryBudget(16 * MB, p)
    for (const resident of [201, 210, 216]) {
      p.state.resident = resident * MB
      check()
    }
    expect(p.state.collections).toEqual([])
  })

  test('a young collection once the growth passes the budget; the next is counted from after it', () => {
    const p = processLike(200 * MB)
    const check = memoryBudget(16 * MB, p)
    p.state.resident = 216 * MB + 1
    check()
    expect(p.state.collections).toEqual(['young'])
    // resident memory rarely shrinks after a collection: the budget is measured from where it stands
    p.state.resident = 230 * MB
    check()
    expect(p.state.collections).toEqual(['young'])
  })

  test('a full collection once memory has grown by twice the budget since the start or the last full one', () => {
    const p = processLike(200 * MB)
    const check = memoryBudget(16 * MB, p)
    for (const resident of [217, 233, 250, 267, 284]) {
      p.state.resident = resident * MB
      check()
    }
    // 217: 17 over the start, young; 233: 16 since it, none; 250: 33 over the start, full; 267: 17 since the full one, young; 284: 34, full
    expect(p.state.collections).toEqual(['young', 'full', 'young', 'full'])
  })

  test('memory given back by a collection lowers the marks the next growth is measured from', () => {
    const p = processLike(100 * MB)
    const check = memoryBudget(10 * MB, p)
    p.state.freed = 30 * MB
    p.state.resident = 140 * MB
    check()
    // 40 over the start: past twice the budget, so a full collection, which gave back 30
    expect(p.state).toEqual({ resident: 110 * MB, collections: ['full'], freed: 30 * MB, kept: 0 })
    p.state.resident = 120 * MB
    check()
    expect(p.state.collections).toEqual(['full'])
    p.state.freed = 0
    p.state.resident = 121 * MB
    check()
    // 11 since the full one: young
    expect(p.state.collections).toEqual(['full', 'young'])
  })

  test('what the batch keeps is not counted against the budget: growth made of it alone collects nothing', () => {
    const p = processLike(200 * MB)
    const check = memoryBudget(16 * MB, p)
    // 40 MB more, of which the batch kept 30: 10 of garbage at most
    p.state.kept = 30 * MB
    p.state.resident = 240 * MB
    check()
    expect(p.state.collections).toEqual([])
    // 7 more of garbage (17 over the start, kept left out): young
    p.state.resident = 247 * MB
    check()
    expect(p.state.collections).toEqual(['young'])
    // the batch keeps 20 more and makes 16 of garbage: within the budget since the young collection
    p.state.kept = 50 * MB
    p.state.resident = 283 * MB
    check()
    expect(p.state.collections).toEqual(['young'])
  })
})
