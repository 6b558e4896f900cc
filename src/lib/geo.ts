export interface Position {
  latitude: number
  longitude: number
}

const MEAN_EARTH_RADIUS_METERS = 6_371_008.8

function radians(degrees: number): number {
  return (degrees * Math.PI) / 180
}

/** Great-circle (haversine) distance in metres on a sphere of the mean Earth radius. */
export function distanceMeters(a: Position, b: Position): number {
  const halfDeltaLatitude = radians(b.latitude - a.latitude) / 2
  const halfDeltaLongitude = radians(b.longitude - a.longitude) / 2
  const h =
    Math.sin(halfDeltaLatitude) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(halfDeltaLongitude) ** 2
  // rounding can push h a hair past 1 near the antipodes, where asin would give NaN
  return 2 * MEAN_EARTH_RADIUS_METERS * Math.asin(Math.sqrt(Math.min(1, h)))
}
