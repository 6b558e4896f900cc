import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'

/*
 * Lists the people pages choose from (departments, companies, roles): up to 100 of each, the
 * API's largest page, which covers the organisations this console is for.
 */
export const DEPARTMENTS_KEY = ['admin', 'departments'] as const
export const COMPANIES_KEY = ['admin', 'companies'] as const
export const ROLES_KEY = ['admin', 'roles'] as const

export function useDepartmentOptions(enabled = true) {
  return useQuery({
    queryKey: [...DEPARTMENTS_KEY, 'options'],
    queryFn: () => unwrap(api.admin.departments.get({ query: { page: 1, page_size: 100 } })),
    select: (data) => data.departments.map((department) => ({ value: String(department.id), label: department.name })),
    enabled,
    retry: false,
  })
}

export function useCompanyOptions(enabled = true) {
  return useQuery({
    queryKey: [...COMPANIES_KEY, 'options'],
    queryFn: () => unwrap(api.admin.companies.get({ query: { page: 1, page_size: 100 } })),
    select: (data) => data.list.map((company) => ({ value: String(company.id), label: company.name })),
    enabled,
    retry: false,
  })
}

export function useRoleOptions(enabled = true) {
  return useQuery({
    queryKey: [...ROLES_KEY, 'options'],
    queryFn: () => unwrap(api.admin.roles.get({ query: { page: 1, page_size: 100 } })),
    select: (data) => data.list.map((role) => ({ value: role.name, label: role.display_name ? `${role.display_name} (${role.name})` : role.name })),
    enabled,
    retry: false,
  })
}
