import { Stack, Tabs } from '@mantine/core'
import { PageTitle } from '../../../components/PageTitle'
import { PayProfiles } from './PayProfiles'
import { PaySettings } from './PaySettings'
import { Runs } from './Runs'
import { Schemes } from './Schemes'
import { TaxSummary } from './TaxSummary'
import { usePayrollWords } from './words'

/** Payroll for HR: the runs of each company's months, employees' pay profiles, companies' pay settings, contribution schemes, employees' income tax. */
export default function Payroll() {
  const p = usePayrollWords()
  return (
    <Stack gap="md">
      <PageTitle>{p.title}</PageTitle>
      <Tabs defaultValue="runs" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="runs">{p.runsTab}</Tabs.Tab>
          <Tabs.Tab value="profiles">{p.profilesTab}</Tabs.Tab>
          <Tabs.Tab value="settings">{p.settingsTab}</Tabs.Tab>
          <Tabs.Tab value="schemes">{p.schemesTab}</Tabs.Tab>
          <Tabs.Tab value="tax">{p.taxTab}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="runs" pt="md">
          <Runs />
        </Tabs.Panel>
        <Tabs.Panel value="profiles" pt="md">
          <PayProfiles />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <PaySettings />
        </Tabs.Panel>
        <Tabs.Panel value="schemes" pt="md">
          <Schemes />
        </Tabs.Panel>
        <Tabs.Panel value="tax" pt="md">
          <TaxSummary />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}
