import { PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { DATE, email, idOrNull, optional, orNull, password, phone, required, USERNAME } from './rules'
import { DateField } from './DateField'
import { usePeopleWords } from './words'
import { FormActions } from '../../../components/FormActions'
import { EmployeeSelect } from '../work/shared'

export const EMPLOYEES_KEY = ['admin', 'employees'] as const

export type Employee = NonNullable<Awaited<ReturnType<typeof fetchEmployees>>>['list'][number]

export const fetchEmployees = (query: { page: number; page_size: number; search?: string; department_id?: number; status?: number }) =>
  unwrap(api.admin.employees.get({ query }))

interface Values {
  name: string
  employee_no: string
  phone: string
  email: string
  department_id: string | null
  company_id: string | null
  position: string
  hire_date: string | null
  work_start_date: string | null
  manager_id: string | null
  status: string
  account: boolean
  username: string
  password: string
}

const FIELDS = ['name', 'employee_no', 'phone', 'email', 'department_id', 'company_id', 'position', 'hire_date', 'work_start_date', 'manager_id', 'status', 'username', 'password']

interface Props {
  employee: Employee | null
  departments: { value: string; label: string }[]
  companies: { value: string; label: string }[]
  onDone: () => void
}

/** Creating an employee (optionally with their sign-in account) or editing one, with the API's field rules. */
export function EmployeeForm({ employee, departments, companies, onDone }: Props) {
  const t = useT()
  const w = usePeopleWords()
  const e = w.employees
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const form = useForm<Values>({
    initialValues: {
      name: employee?.name ?? '',
      employee_no: employee?.employee_no ?? '',
      phone: employee?.phone ?? '',
      email: employee?.email ?? '',
      department_id: employee?.department_id ? String(employee.department_id) : null,
      company_id: employee?.company_id ? String(employee.company_id) : null,
      position: employee?.position ?? '',
      hire_date: employee?.hire_date ?? null,
      work_start_date: employee?.work_start_date ?? null,
      manager_id: employee?.manager_id ? String(employee.manager_id) : null,
      status: String(employee?.status ?? 1),
      account: false,
      username: '',
      password: '',
    },
    validate: {
      name: required(w.shared, 100),
      employee_no: optional(w.shared, 50),
      phone: phone(w.shared),
      email: email(w.shared),
      position: optional(w.shared, 100),
      hire_date: (value) => (value && !DATE.test(value) ? w.shared.badDate : null),
      work_start_date: (value, values) =>
        value && !DATE.test(value) ? w.shared.badDate : value && values.hire_date && value > values.hire_date ? e.workStartAfterHire : null,
      username: (value, values) => (values.account && !USERNAME.test(value.trim()) ? w.users.usernameRule : null),
      password: (value, values) => (values.account ? password(w.shared)(value) : null),
    },
  })

  const save = useMutation({
    mutationFn: (values: Values) => {
      const fields = {
        name: values.name.trim(),
        employee_no: orNull(values.employee_no),
        phone: orNull(values.phone),
        email: orNull(values.email),
        department_id: idOrNull(values.department_id),
        company_id: idOrNull(values.company_id),
        position: orNull(values.position),
        hire_date: values.hire_date || null,
        work_start_date: values.work_start_date || null,
        // sent when changed: who decides an employee's requests is guarded (nobody picks their own decider)
        ...(!employee || idOrNull(values.manager_id) !== (employee.manager_id ?? null) ? { manager_id: idOrNull(values.manager_id) } : {}),
        status: values.status === '0' ? (0 as const) : (1 as const),
      }
      if (employee) return unwrap(api.admin.employees({ id: employee.id }).put(fields))
      return unwrap(
        api.admin.employees.post({
          ...fields,
          ...(values.account ? { username: values.username.trim(), password: values.password } : {}),
        }),
      )
    },
    onSuccess: () => {
      notifySaved(employee ? e.updated : e.created)
      void queryClient.invalidateQueries({ queryKey: EMPLOYEES_KEY })
      onDone()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, FIELDS)),
  })

  return (
    <form
      onSubmit={form.onSubmit((values) => {
        setProblem(null)
        save.mutate(values)
      })}
      noValidate
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={e.name} withAsterisk data-autofocus {...form.getInputProps('name')} />
          <TextInput label={e.employeeNo} {...form.getInputProps('employee_no')} />
          <Select label={e.department} data={departments} clearable searchable {...form.getInputProps('department_id')} />
          <Select label={e.company} data={companies} clearable searchable {...form.getInputProps('company_id')} />
          <TextInput label={e.phone} type="tel" {...form.getInputProps('phone')} />
          <TextInput label={e.email} type="email" {...form.getInputProps('email')} />
          <DateField label={e.hireDate} clearable {...form.getInputProps('hire_date')} />
          <DateField label={e.workStartDate} description={e.workStartHelp} clearable {...form.getInputProps('work_start_date')} />
          <TextInput label={e.position} {...form.getInputProps('position')} />
          <EmployeeSelect label={e.manager} description={e.managerHelp} clearable {...form.getInputProps('manager_id')} />
          {employee && (
            <Select
              label={e.status}
              data={[
                { value: '1', label: e.active },
                { value: '0', label: e.left },
              ]}
              allowDeselect={false}
              {...form.getInputProps('status')}
            />
          )}
        </SimpleGrid>
        {!employee && (
          <>
            <Switch label={e.createAccount} description={e.createAccountHelp} {...form.getInputProps('account', { type: 'checkbox' })} />
            {form.values.account && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={e.username} withAsterisk autoComplete="off" description={w.users.usernameRule} {...form.getInputProps('username')} />
                <PasswordInput label={e.password} withAsterisk autoComplete="new-password" description={w.shared.badPassword} {...form.getInputProps('password')} />
              </SimpleGrid>
            )}
          </>
        )}
        <FormActions problem={problem} onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  )
}
