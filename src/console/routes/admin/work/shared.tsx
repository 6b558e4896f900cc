import { Select, type SelectProps } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import { api, unwrap } from '../../../api'
import { todayIn } from '../../../components/dates'
import { useWorkWords } from './words'

/** 'YYYY-MM' of a Mantine date value ('YYYY-MM-DD'). */
export const monthOf = (value: string | null): string | null => (value ? value.slice(0, 7) : null)

export const currentMonth = () => todayIn().slice(0, 7)

/** Whole yuan with at most 2 decimals, written as text, as integer fen (exact, no floating point); null when it is not such an amount. */
export function toFen(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim()
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** A yuan amount of the API (a number with at most 2 decimals) as integer fen. */
export const fenOf = (yuanAmount: number) => Math.round(yuanAmount * 100)

/** Up to 100 of a list (the API's largest page) as Select options. */
export function useGroupOptions(enabled = true) {
  return useQuery({
    queryKey: ['admin', 'attendance', 'groups', 'options'],
    queryFn: () => unwrap(api.admin.attendance.groups.get({ query: { page: 1, page_size: 100 } })),
    select: (data) => data.groups.map((group) => ({ value: String(group.id), label: group.name })),
    enabled,
    retry: false,
  })
}

export function useCompanyOptions(enabled = true) {
  return useQuery({
    queryKey: ['admin', 'companies', 'options'],
    queryFn: () => unwrap(api.admin.companies.get({ query: { page: 1, page_size: 100 } })),
    select: (data) => data.list.map((company) => ({ value: String(company.id), label: company.name })),
    enabled,
    retry: false,
  })
}

export function useDepartmentOptions(enabled = true) {
  return useQuery({
    queryKey: ['admin', 'departments', 'options'],
    queryFn: () => unwrap(api.admin.departments.get({ query: { page: 1, page_size: 100 } })),
    select: (data) => data.departments.map((department) => ({ value: String(department.id), label: department.name })),
    enabled,
    retry: false,
  })
}

const LEAVE_TYPES = {
  queryKey: ['admin', 'leave', 'types', 'options'],
  queryFn: () => unwrap(api.admin.leave.types.get({ query: { page: 1, page_size: 100 } })),
  retry: false,
} as const

/** Every leave type (up to 100): what a form needs to know of the one chosen, such as its unit. */
export function useLeaveTypes(enabled = true) {
  return useQuery({ ...LEAVE_TYPES, enabled })
}

export function useLeaveTypeOptions(enabled = true) {
  return useQuery({
    ...LEAVE_TYPES,
    select: (data) => data.types.map((type) => ({ value: String(type.id), label: type.name })),
    enabled,
  })
}

/** The ids of leave types without a balance (requests never exceed one): their "remaining" means nothing. */
export function useUnlimitedLeaveTypes() {
  return useQuery({ ...LEAVE_TYPES, select: (data) => new Set(data.types.filter((type) => !type.requires_balance).map((type) => type.id)) })
}

interface EmployeeSelectProps extends Omit<SelectProps, 'data' | 'searchable' | 'onSearchChange' | 'searchValue' | 'filter'> {
  label: string
}

/**
 * An employee chosen by name: the API searches (name, number, phone, e-mail) as the user types,
 * and the names already seen stay known so the chosen one keeps its label.
 */
export function EmployeeSelect(props: EmployeeSelectProps) {
  const w = useWorkWords()
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search, 250)
  const known = useRef(new Map<string, string>())
  const selectedLabel = props.value ? known.current.get(props.value) : undefined
  // while the box shows the chosen name, list everyone rather than only that name
  const term = debounced && debounced !== selectedLabel ? debounced : undefined
  const query = useQuery({
    queryKey: ['admin', 'employees', 'options', term ?? ''],
    queryFn: () => unwrap(api.admin.employees.get({ query: { page: 1, page_size: 50, ...(term ? { search: term } : {}) } })),
    retry: false,
  })
  const data = useMemo(() => {
    const options = (query.data?.list ?? []).map((employee) => ({
      value: String(employee.id),
      label: employee.employee_no ? `${employee.name} (${employee.employee_no})` : employee.name,
    }))
    for (const option of options) known.current.set(option.value, option.label)
    if (props.value && !options.some((option) => option.value === props.value)) {
      options.unshift({ value: props.value, label: known.current.get(props.value) ?? `#${props.value}` })
    }
    return options
  }, [query.data, props.value])
  return (
    <Select
      {...props}
      data={data}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={query.isFetching ? w.shared.searching : w.shared.nothingFound}
    />
  )
}

export const ATTENDANCE_COLORS = ['green', 'orange', 'orange', 'red', 'grape']
