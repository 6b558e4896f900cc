import { describe, expect, test } from 'bun:test'
import { allot, QuotaExceededError, uploadBudget } from '../../src/modules/storage/quota'

const KiB = 1024
const message = (used: string, quota: string) =>
  `This file does not fit in your upload quota: your files take ${used} of ${quota}. ` +
  'Delete files you no longer need, or ask an administrator to raise UPLOAD_QUOTA'

describe('QuotaExceededError', () => {
  test('is a 507 saying what is used, the quota and what to do', () => {
    const error = new QuotaExceededError(1536, 2 * 1024 ** 3)
    expect(error.status).toBe(507)
    expect(error.message).toBe(message('1.50 KB (1536 bytes)', '2.00 GB (2147483648 bytes)'))
  })
})

describe('a request’s budget while files stream', () => {
  test('takes bytes up to the quota exactly; one more byte is refused, naming what the stored files take', () => {
    const budget = uploadBudget(KiB, 4 * KiB)
    budget.take(2 * KiB, 0)
    budget.take(KiB, 2 * KiB)
    expect(() => budget.take(1, 3 * KiB)).toThrow(new QuotaExceededError(KiB, 4 * KiB))
  })

  test('counts earlier files of the request as used; a refused file gives its bytes back', () => {
    const budget = uploadBudget(0, 4 * KiB)
    budget.take(KiB, 0) // a first file of 1 KiB, kept
    budget.take(2 * KiB, 0) // a second file: 2 KiB so far…
    expect(() => budget.take(2 * KiB, 2 * KiB)).toThrow(new QuotaExceededError(KiB, 4 * KiB))
    budget.release(2 * KiB) // …which is not kept
    budget.take(3 * KiB, 0) // so a third of 3 KiB fits
    expect(() => budget.take(1, 3 * KiB)).toThrow(new QuotaExceededError(KiB, 4 * KiB))
  })

  test('an account already past a lowered quota cannot stream a byte', () => {
    expect(() => uploadBudget(5 * KiB, 4 * KiB).take(1, 0)).toThrow(new QuotaExceededError(5 * KiB, 4 * KiB))
  })

  test('a quota of 0 means no limit', () => {
    const budget = uploadBudget(10 * 1024 ** 4, 0)
    expect(() => budget.take(Number.MAX_SAFE_INTEGER, 0)).not.toThrow()
  })
})

describe('which files fit at commit', () => {
  const files = (...sizes: number[]) => sizes.map((size, i) => ({ name: `f${i}`, size }))

  test.each([
    ['all fit', 0, 10, [1, 2, 3], ['f0', 'f1', 'f2'], []],
    ['exactly the quota', 4, 10, [6], ['f0'], []],
    ['one byte over', 4, 10, [7], [], [['f0', 4]]],
    ['a refused file takes nothing from those after it', 2, 6, [1, 4, 1, 3, 2], ['f0', 'f2', 'f4'], [['f1', 3], ['f3', 4]]],
    ['already over', 11, 10, [1], [], [['f0', 11]]],
    ['no limit', 1e15, 0, [1e15], ['f0'], []],
  ] as [string, number, number, number[], string[], [string, number][]][])('%s', (_what, used, quota, sizes, kept, refused) => {
    const result = allot(used, quota, files(...sizes))
    expect(result.kept.map((file) => file.name)).toEqual(kept)
    expect([...result.refused].map(([file, error]) => [file.name, error.message])).toEqual(
      refused.map(([name, at]) => [name, new QuotaExceededError(at, quota).message]),
    )
  })
})
