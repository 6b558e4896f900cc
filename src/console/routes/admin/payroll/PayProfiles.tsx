import { Button, Group, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { DataTable } from '../../../components/DataTable'
import { yuan } from '../../../components/format'
import { can, useMe } from '../../../components/me'
import { useT } from '../../../i18n'
import { EmployeeSelect } from '../work/shared'
import { fetchProfiles, PAYROLL_KEY, type PayProfile } from './data'
import { fen, money } from './parts'
import { ProfileForm } from './ProfileForm'
import { useSchemes } from './Schemes'
import { TaxDeclaration } from './TaxDeclaration'
import { usePayrollWords } from './words'

/**
 * An employee's pay profiles, newest first: what each month from its own on is paid from; a new one,
 * or a month's replaced. Below them, the employee's special additional deductions of a year.
 */
export function PayProfiles() {
  const t = useT()
  const p = usePayrollWords()
  const me = useMe().data
  const manage = can(me, 'payroll:manage')
  const [employee, setEmployee] = useState<{ id: string; name: string } | null>(null)
  const [editing, setEditing] = useState<PayProfile | 'new' | null>(null)
  const profiles = useQuery({
    queryKey: [...PAYROLL_KEY, 'profiles', employee?.id],
    queryFn: () => fetchProfiles(Number(employee!.id)),
    enabled: employee !== null,
  })
  const schemes = useSchemes()
  const schemeName = (id: number | null) => (id === null ? '—' : (schemes.data?.schemes.find((scheme) => scheme.id === id)?.name ?? `#${id}`))

  return (
    <Stack gap="md">
      <Group align="flex-end" justify="space-between">
        <EmployeeSelect
          label={p.profileEmployee}
          value={employee?.id ?? null}
          onChange={(value, option) => setEmployee(value ? { id: value, name: (option?.label ?? value).replace(/ \([^)]*\)$/, '') } : null)}
          w={300}
        />
        {manage && employee && <Button onClick={() => setEditing('new')}>{p.newProfile}</Button>}
      </Group>
      {employee === null ? (
        <Text c="dimmed">{p.chooseEmployee}</Text>
      ) : (
        <DataTable
          label={p.profilesTable(employee.name)}
          rows={profiles.data?.profiles}
          rowKey={(profile) => profile.id}
          loading={profiles.isPending}
          error={profiles.error}
          columns={[
            { header: p.effectiveMonth, cell: (profile) => profile.effective_month },
            { header: p.basicSalary, cell: (profile) => money(profile.basic_salary) },
            { header: p.seniorityPay, cell: (profile) => money(profile.seniority_pay) },
            { header: p.allowance, cell: (profile) => money(profile.allowance) },
            { header: p.monthly, cell: (profile) => <Text fw={700}>{yuan(fen(profile.basic_salary) + fen(profile.seniority_pay) + fen(profile.allowance))}</Text> },
            { header: p.contributionBase, cell: (profile) => money(profile.contribution_base) },
            { header: p.housingFundBase, cell: (profile) => money(profile.housing_fund_base) },
            { header: p.profileScheme, cell: (profile) => schemeName(profile.scheme_id) },
            { header: p.bankAccount, cell: (profile) => profile.bank_account ?? '—' },
            ...(manage
              ? [
                  {
                    header: t.common.actions,
                    cell: (profile: PayProfile) => (
                      <Button size="xs" variant="default" aria-label={`${p.editProfile}: ${profile.effective_month}`} onClick={() => setEditing(profile)}>
                        {p.editProfile}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {employee && <TaxDeclaration key={employee.id} employee={{ id: Number(employee.id), name: employee.name }} />}
      {editing !== null && employee && (
        <ProfileForm
          key={editing === 'new' ? 'new' : editing.id}
          employee={{ id: Number(employee.id), name: employee.name }}
          profile={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  )
}
