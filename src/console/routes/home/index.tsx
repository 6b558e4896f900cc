import { Stack } from '@mantine/core'
import { lazy, Suspense, useEffect, useState } from 'react'
import { can, useMe } from '../../components/me'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import Today from '../me/today'

const FirstSteps = lazy(() => import('./FirstSteps'))
const TeamToday = lazy(() => import('./TeamToday'))

/** How long an employee's phone waits, once today's card is up, before asking whether they manage anyone. */
const BOARD_DELAY_MS = 1500

/**
 * The landing page after sign-in: today's card for an employee (in the first download, so the
 * clock-in button needs no second round trip); for an administrator the first-run steps still to
 * do; for HR and managers today's board and the requests waiting for them. Those two load as
 * their own chunks: an employee's phone asks for the board only after its card is on screen, and
 * shows it only when the API says the caller has people to oversee.
 */
export default function Home() {
  const t = useT()
  const me = useMe().data
  const clocks = !!me?.employee && can(me, 'attendance:clock')
  const admin = !!me?.roles.includes('admin')
  const oversees = can(me, 'attendance_records:read') || can(me, 'approvals:manage')
  const [boardDue, setBoardDue] = useState(oversees || admin)
  useEffect(() => {
    if (boardDue || !me?.employee) return
    const timer = setTimeout(() => setBoardDue(true), BOARD_DELAY_MS)
    return () => clearTimeout(timer)
  }, [boardDue, me?.employee])

  return (
    <Stack gap="lg">
      {clocks ? <Today /> : <PageTitle>{t.common.nav.today}</PageTitle>}
      <Suspense fallback={null}>
        {admin && <FirstSteps />}
        {boardDue && <TeamToday quiet={!oversees && !admin} />}
      </Suspense>
    </Stack>
  )
}
