import { Stack, Tabs } from '@mantine/core'
import { can, useMe } from '../../../components/me'
import { PageTitle } from '../../../components/PageTitle'
import { LeaveBalances } from './LeaveBalances'
import { LeaveRequests } from './LeaveRequests'
import { LeaveTypes } from './LeaveTypes'
import { useWorkWords } from './words'

/** Leave for HR: types, employees' balances with adjustments, every request. */
export default function Leave() {
  const l = useWorkWords().leave
  const me = useMe().data
  const types = can(me, 'leave_types:read')
  const read = can(me, 'leave:read')
  return (
    <Stack gap="md">
      <PageTitle>{l.title}</PageTitle>
      <Tabs defaultValue={types ? 'types' : 'requests'} keepMounted={false}>
        <Tabs.List>
          {types && <Tabs.Tab value="types">{l.typesTab}</Tabs.Tab>}
          {read && <Tabs.Tab value="balances">{l.balancesTab}</Tabs.Tab>}
          {read && <Tabs.Tab value="requests">{l.requestsTab}</Tabs.Tab>}
        </Tabs.List>
        {types && (
          <Tabs.Panel value="types" pt="md">
            <LeaveTypes />
          </Tabs.Panel>
        )}
        {read && (
          <Tabs.Panel value="balances" pt="md">
            <LeaveBalances />
          </Tabs.Panel>
        )}
        {read && (
          <Tabs.Panel value="requests" pt="md">
            <LeaveRequests />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  )
}
