import { expect, test } from 'bun:test'
import { ttlCache } from '../../src/lib/ttl-cache'

const counter = () => {
  let loads = 0
  return {
    load: async () => ++loads,
    get loads() {
      return loads
    },
  }
}

test('a value is loaded once while fresh, and again after the time to live', async () => {
  const cache = ttlCache<string, number>(40)
  const source = counter()
  expect(await cache.get('a', source.load)).toBe(1)
  expect(await cache.get('a', source.load)).toBe(1)
  expect(await cache.get('b', source.load)).toBe(2)
  await Bun.sleep(60)
  expect(await cache.get('a', source.load)).toBe(3)
})

test('concurrent misses share one load', async () => {
  const cache = ttlCache<string, number>(1000)
  const source = counter()
  expect(await Promise.all([cache.get('a', source.load), cache.get('a', source.load), cache.get('a', source.load)])).toEqual([1, 1, 1])
  expect(source.loads).toBe(1)
})

test('delete and clear drop values at once', async () => {
  const cache = ttlCache<string, number>(1000)
  const source = counter()
  await cache.get('a', source.load)
  await cache.get('b', source.load)
  cache.delete('a')
  expect(await cache.get('a', source.load)).toBe(3)
  expect(await cache.get('b', source.load)).toBe(2)
  cache.clear()
  expect(await cache.get('b', source.load)).toBe(4)
})

test('a load that was running when the cache was cleared is not kept', async () => {
  const cache = ttlCache<string, string>(1000)
  let release!: () => void
  const slow = cache.get('a', () => new Promise<string>((resolve) => (release = () => resolve('before the change'))))
  cache.clear()
  release()
  expect(await slow).toBe('before the change')
  expect(await cache.get('a', async () => 'after the change')).toBe('after the change')
})

test('a failed load is not kept', async () => {
  const cache = ttlCache<string, number>(1000)
  await expect(cache.get('a', async () => Promise.reject(new Error('down')))).rejects.toThrow('down')
  expect(await cache.get('a', async () => 7)).toBe(7)
})
