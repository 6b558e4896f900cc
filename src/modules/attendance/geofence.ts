import { ValidationError } from '../../http/errors'
import { distanceMeters, type Position } from '../../lib/geo'
import type { Message } from '../../lib/messages'
import { say } from './messages'

export interface Fence {
  locationRequired: boolean
  allowedLatitude: number | null
  allowedLongitude: number | null
  locationRadius: number
}

export type Verdict =
  | { allowed: true }
  /** `distance` in metres (one decimal), null when no position was sent */
  | { allowed: false; position: Position | null; distance: number | null; message: Message }

/**
 * Whether a clock position satisfies the rule's area: inside its radius by great-circle
 * distance, or no area at all. A lone coordinate is a 400 at once.
 */
export function judgePosition(fence: Fence, sent: { latitude?: number; longitude?: number }, kind: 'clock_in' | 'clock_out'): Verdict {
  if ((sent.latitude === undefined) !== (sent.longitude === undefined))
    throw new ValidationError(say.coordinatesTogether(), [
      { field: sent.latitude === undefined ? 'latitude' : 'longitude', message: say.withOtherCoordinate() },
    ])
  const verb = kind === 'clock_in' ? say.verbClockIn() : say.verbClockOut()
  if (!fence.locationRequired || fence.allowedLatitude === null || fence.allowedLongitude === null) return { allowed: true }
  const position = sent.latitude === undefined ? null : { latitude: sent.latitude, longitude: sent.longitude! }
  if (!position)
    return {
      allowed: false,
      position,
      distance: null,
      message: say.positionNeeded({ verb, radius: fence.locationRadius }),
    }
  const distance = distanceMeters(position, { latitude: fence.allowedLatitude, longitude: fence.allowedLongitude })
  if (distance <= fence.locationRadius) return { allowed: true }
  return {
    allowed: false,
    position,
    distance: Math.round(distance * 10) / 10,
    message: say.outsideArea({ distance: Math.round(distance), radius: fence.locationRadius, verb }),
  }
}
