import { ValidationError } from '../../http/errors'
import { distanceMeters, type Position } from '../../lib/geo'

export interface Fence {
  locationRequired: boolean
  allowedLatitude: number | null
  allowedLongitude: number | null
  locationRadius: number
}

export type Verdict =
  | { allowed: true }
  /** `distance` in metres (one decimal), null when no position was sent */
  | { allowed: false; position: Position | null; distance: number | null; message: string }

/**
 * Whether a clock position satisfies the rule's area: inside its radius by great-circle
 * distance, or no area at all. A lone coordinate is a 400 at once.
 */
export function judgePosition(fence: Fence, sent: { latitude?: number; longitude?: number }, verb: string): Verdict {
  if ((sent.latitude === undefined) !== (sent.longitude === undefined))
    throw new ValidationError('Send latitude and longitude together', [
      { field: sent.latitude === undefined ? 'latitude' : 'longitude', message: 'is required with the other coordinate' },
    ])
  if (!fence.locationRequired || fence.allowedLatitude === null || fence.allowedLongitude === null) return { allowed: true }
  const position = sent.latitude === undefined ? null : { latitude: sent.latitude, longitude: sent.longitude! }
  if (!position)
    return {
      allowed: false,
      position,
      distance: null,
      message: `Your attendance rule needs your position to ${verb}: send latitude and longitude (allowed radius ${fence.locationRadius} m)`,
    }
  const distance = distanceMeters(position, { latitude: fence.allowedLatitude, longitude: fence.allowedLongitude })
  if (distance <= fence.locationRadius) return { allowed: true }
  return {
    allowed: false,
    position,
    distance: Math.round(distance * 10) / 10,
    message: `You are ${Math.round(distance)} m from the allowed place, outside its ${fence.locationRadius} m radius; ${verb} from within ${fence.locationRadius} m`,
  }
}
