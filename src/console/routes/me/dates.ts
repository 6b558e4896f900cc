import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../api'
import { browserZone } from '../../components/format'

/** The zone the caller's attendance is kept in: their latest record's, else the browser's. */
export function useAttendanceZone(): string {
  const latest = useQuery({
    queryKey: ['attendance', 'zone'],
    queryFn: () => unwrap(api.attendance.records.get({ query: { page: 1, page_size: 1 } })),
    staleTime: 5 * 60_000,
  })
  return latest.data?.records[0]?.timezone ?? browserZone()
}
