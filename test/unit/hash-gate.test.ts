import { describe, expect, test } from 'bun:test'
import { createHashGate, GateRefusal, hashGateOptions, type HashGateOptions } from '../../src/lib/hash-gate'

/** A task that runs until the test ends it; `started` tells whether the gate let it run. */
function task<T = string>(value?: T) {
  let finish!: () => void
  let fail!: (error: Error) => void
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  const handle = {
    started: false,
    run: async () => {
      handle.started = true
      await done
      return value
    },
    finish,
    fail,
  }
  return handle
}

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

const refusal = (reason: string, retryAfterSeconds: number) =>
  ({ error: expect.objectContaining({ name: 'GateRefusal', reason, retryAfterSeconds }) }) as const

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

const OPTIONS: HashGateOptions = { limit: 2, queue: 2, perAddress: 2, maxWaitMs: 1000 }

describe('hash gate', () => {
  test('the service shape: a queue of 8 turns per running place, 2 per address, 1.5 s of waiting', () => {
    expect(hashGateOptions(1)).toEqual({ limit: 1, queue: 8, perAddress: 2, maxWaitMs: 1500 })
    expect(hashGateOptions(3)).toEqual({ limit: 3, queue: 24, perAddress: 2, maxWaitMs: 1500 })
  })

  test('runs at most `limit` tasks; the next ones wait and start in order of arrival', async () => {
    const gate = createHashGate(OPTIONS)
    const tasks = ['a', 'b', 'c', 'd'].map((name) => task(name))
    const results = tasks.map((t, i) => gate.run(`10.0.0.${i}`, t.run))
    await tick()
    expect(tasks.map((t) => t.started)).toEqual([true, true, false, false])
    expect(gate.load()).toEqual({ running: 2, waiting: 2, addresses: 4 })

    tasks[1].finish()
    expect(await results[1]).toBe('b')
    await tick()
    expect(tasks.map((t) => t.started)).toEqual([true, true, true, false])
    tasks[0].finish()
    await tick()
    expect(tasks[3].started).toBe(true)
    tasks[2].finish()
    tasks[3].finish()
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd'])
    expect(gate.load()).toEqual({ running: 0, waiting: 0, addresses: 0 })
  })

  test('one address gets at most its share, running or waiting; other addresses are not held back', async () => {
    const gate = createHashGate({ ...OPTIONS, limit: 1, queue: 8 })
    const [first, second, third, other] = [task(), task(), task(), task()]
    const running = gate.run('203.0.113.7', first.run)
    const waiting = gate.run('203.0.113.7', second.run)
    const refused = await settled(gate.run('203.0.113.7', third.run))
    expect(refused).toEqual(refusal('address', 1))
    expect(third.started).toBe(false)
    const elsewhere = gate.run('198.51.100.20', other.run)
    expect(gate.load()).toEqual({ running: 1, waiting: 2, addresses: 2 })

    first.finish()
    await running
    // a place of the address is free again once one of its tasks ends
    const again = task()
    const next = gate.run('203.0.113.7', again.run)
    second.finish()
    other.finish()
    again.finish()
    await Promise.all([waiting, elsewhere, next])
    expect(again.started).toBe(true)
  })

  test('an unknown address (null) is one address of its own', async () => {
    const gate = createHashGate(OPTIONS)
    const [a, b, c] = [task(), task(), task()]
    const runs = [gate.run(null, a.run), gate.run(null, b.run)]
    expect(await settled(gate.run(null, c.run))).toEqual(refusal('address', 1))
    a.finish()
    b.finish()
    await Promise.all(runs)
  })

  test('when every running and waiting place is taken, the next is refused at once without running', async () => {
    const gate = createHashGate({ ...OPTIONS, maxWaitMs: 1500 })
    const tasks = [task(), task(), task(), task(), task()]
    const runs = tasks.slice(0, 4).map((t, i) => gate.run(`10.0.0.${i}`, t.run))
    const started = Date.now()
    expect(await settled(gate.run('10.0.0.9', tasks[4].run))).toEqual(refusal('full', 2))
    expect(Date.now() - started).toBeLessThan(50)
    expect(tasks[4].started).toBe(false)
    for (const t of tasks) t.finish()
    await Promise.all(runs)
    expect(gate.load()).toEqual({ running: 0, waiting: 0, addresses: 0 })
  })

  test('a task that waits longer than maxWaitMs is refused, leaves the queue and never runs', async () => {
    const gate = createHashGate({ limit: 1, queue: 4, perAddress: 2, maxWaitMs: 40 })
    const [slow, late] = [task(), task()]
    const running = gate.run('10.0.0.1', slow.run)
    const started = Date.now()
    expect(await settled(gate.run('10.0.0.2', late.run))).toEqual(refusal('timeout', 1))
    expect(Date.now() - started).toBeGreaterThanOrEqual(35)
    expect(gate.load()).toEqual({ running: 1, waiting: 0, addresses: 1 })
    slow.finish()
    await running
    await tick()
    expect(late.started).toBe(false)
  })

  test('a task that fails gives its place to the next and its error to its caller', async () => {
    const gate = createHashGate({ ...OPTIONS, limit: 1 })
    const [failing, next] = [task(), task('next')]
    const first = settled(gate.run('10.0.0.1', failing.run))
    const second = gate.run('10.0.0.1', next.run)
    failing.fail(new Error('argon2 broke'))
    expect(await first).toEqual({ error: new Error('argon2 broke') })
    await tick()
    expect(next.started).toBe(true)
    next.finish()
    expect(await second).toBe('next')
    expect(gate.load()).toEqual({ running: 0, waiting: 0, addresses: 0 })
  })

  test('the refusal is an Error naming its reason', () => {
    const error = new GateRefusal('full', 2)
    expect(error).toBeInstanceOf(Error)
    expect(error.message).toBe('password work refused: full')
  })
})
