/**
 * A seeded pseudo-random source (sfc32 seeded through splitmix32): the same seed gives
 * the same data on every machine, which Math.random cannot.
 */
export interface Random {
  /** [0, 1) */
  next(): number
  /** a whole number in [min, max] */
  int(min: number, max: number): number
  chance(probability: number): boolean
  pick<T>(items: readonly T[]): T
  /** an index into `weights` with probability proportional to its weight */
  weighted(weights: readonly number[]): number
  /** 32 random bits as 8 hex digits */
  hex8(): string
  /** an RFC 4122 version 4 UUID made from this source */
  uuid(): string
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
}

export function createRandom(seed: number): Random {
  const init = splitmix32(seed)
  let a = init()
  let b = init()
  let c = init()
  let d = init()
  const u32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0
    d = (d + 1) >>> 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) >>> 0
    c = ((c << 21) | (c >>> 11)) >>> 0
    c = (c + t) >>> 0
    return t
  }
  for (let i = 0; i < 12; i++) u32()
  const next = () => u32() / 4_294_967_296
  const hex8 = () => u32().toString(16).padStart(8, '0')
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)],
    weighted(weights) {
      const total = weights.reduce((sum, w) => sum + w, 0)
      let roll = next() * total
      for (let i = 0; i < weights.length; i++) {
        roll -= weights[i]
        if (roll < 0) return i
      }
      return weights.length - 1
    },
    hex8,
    uuid() {
      const h = hex8() + hex8() + hex8() + hex8()
      const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
    },
  }
}
