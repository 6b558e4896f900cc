import { PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useDebouncedValue } from '@mantine/hooks'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { FormActions } from '../../../components/FormActions'
import { notifySaved } from '../../../components/notify'
import { EMPLOYEES_KEY, type Employee } from './EmployeeForm'
import { password, USERNAME } from './rules'
import { usePeopleWords } from './words'

interface Values {
  how: 'new' | 'link'
  username: string
  password: string
  user_id: string | null
}

/**
 * POST /api/v1/admin/employees/{id}/account (CONTRACT §23): `{username, password}` creates a login
 * for an employee that has none, `{user_id}` links an existing account; the answer is the employee.
 */
const addAccount = (employeeId: number, body: { username: string; password: string } | { user_id: number }) =>
  unwrap(api.admin.employees({ id: employeeId }).account.post(body))

/** A sign-in for an employee who has none: a new login, or an account that exists already. */
export function EmployeeAccount({ employee, onDone }: { employee: Employee; onDone: () => void }) {
  const w = usePeopleWords()
  const e = w.employees
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const form = useForm<Values>({
    initialValues: { how: 'new', username: '', password: '', user_id: null },
    validate: {
      username: (value, values) => (values.how === 'new' && !USERNAME.test(value.trim()) ? w.users.usernameRule : null),
      password: (value, values) => (values.how === 'new' ? password(w.shared)(value) : null),
      user_id: (value, values) => (values.how === 'link' && !value ? w.shared.required : null),
    },
  })
  // the names seen stay known, so the chosen account keeps its label; while the box shows it, everyone is listed
  const known = useRef(new Map<string, string>())
  const term = debounced && debounced !== known.current.get(form.values.user_id ?? '') ? debounced : ''
  const users = useQuery({
    queryKey: ['admin', 'users', 'options', term],
    queryFn: () => unwrap(api.admin.users.get({ query: { page: 1, page_size: 50, status: 1, ...(term ? { search: term } : {}) } })),
    enabled: form.values.how === 'link',
    retry: false,
  })
  const accounts = (users.data?.list ?? []).map((user) => ({ value: String(user.id), label: user.name === user.username ? user.username : `${user.name} (${user.username})` }))
  for (const account of accounts) known.current.set(account.value, account.label)
  const chosen = form.values.user_id
  if (chosen && !accounts.some((account) => account.value === chosen)) accounts.unshift({ value: chosen, label: known.current.get(chosen) ?? `#${chosen}` })
  const save = useMutation({
    mutationFn: (values: Values) =>
      addAccount(employee.id, values.how === 'new' ? { username: values.username.trim(), password: values.password } : { user_id: Number(values.user_id) }),
    onSuccess: (_, values) => {
      notifySaved(values.how === 'new' ? e.loginCreated : e.accountLinked)
      void queryClient.invalidateQueries({ queryKey: EMPLOYEES_KEY })
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] })
      onDone()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, ['username', 'password', 'user_id'])),
  })

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setProblem(null)
        save.mutate(values)
      })}
    >
      <Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="employee-login-how">
            {e.loginHow}
          </Text>
          <SegmentedControl
            aria-labelledby="employee-login-how"
            data={[
              { value: 'new', label: e.newLogin },
              { value: 'link', label: e.linkAccount },
            ]}
            {...form.getInputProps('how')}
          />
        </Stack>
        {form.values.how === 'new' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={e.username} withAsterisk autoComplete="off" description={w.users.usernameRule} data-autofocus {...form.getInputProps('username')} />
            <PasswordInput label={e.password} withAsterisk autoComplete="new-password" description={w.shared.badPassword} {...form.getInputProps('password')} />
          </SimpleGrid>
        ) : (
          <Select
            label={e.existingAccount}
            description={e.existingAccountHelp}
            withAsterisk
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options }) => options}
            data={accounts}
            {...form.getInputProps('user_id')}
          />
        )}
        <FormActions problem={problem} onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  )
}
