import { describe, expect, test } from 'bun:test'
import { distanceMeters } from '../../src/lib/geo'

const METERS_PER_DEGREE_OF_LATITUDE = 111_194.93

describe('great-circle distance', () => {
  test.each([
    ['the same point', [31.2304, 121.4737], [31.2304, 121.4737], 0, 0],
    ['one degree of latitude', [0, 0], [1, 0], 111_195, 1],
    ['one degree of latitude, far north', [60, 10], [61, 10], 111_195, 1],
    ['Beijing → Shanghai', [39.9042, 116.4074], [31.2304, 121.4737], 1_067_000, 2_000],
    ['Shanghai → Beijing', [31.2304, 121.4737], [39.9042, 116.4074], 1_067_000, 2_000],
    ['antipodes on the equator', [0, 0], [0, 180], 20_015_000, 1_000],
    ['antipodes off the equator', [10, 20], [-10, -160], 20_015_000, 1_000],
    ['pole to pole', [90, 0], [-90, 0], 20_015_000, 1_000],
    ['across the antimeridian', [0, 179.9], [0, -179.9], 22_200, 100],
    ['150 m north of a centre', [31.2304, 121.4737], [31.2304 + 150 / METERS_PER_DEGREE_OF_LATITUDE, 121.4737], 150, 0.5],
    ['150 m north at the equator', [0, 0], [150 / METERS_PER_DEGREE_OF_LATITUDE, 0], 150, 0.5],
  ] as const)('%s ≈ %d m', (_name, [aLat, aLng], [bLat, bLng], expected, tolerance) => {
    const meters = distanceMeters({ latitude: aLat, longitude: aLng }, { latitude: bLat, longitude: bLng })
    expect(Math.abs(meters - expected)).toBeLessThanOrEqual(tolerance)
  })

  test('a degree of longitude shrinks with the cosine of the latitude', () => {
    const atEquator = distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 })
    const at60 = distanceMeters({ latitude: 60, longitude: 0 }, { latitude: 60, longitude: 1 })
    expect(at60 / atEquator).toBeCloseTo(0.5, 3)
  })

  test('longitude means nothing at a pole', () => {
    expect(distanceMeters({ latitude: 90, longitude: 0 }, { latitude: 90, longitude: 135 })).toBeLessThan(1e-6)
  })
})
