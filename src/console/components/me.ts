import { useQuery } from '@tanstack/react-query'
import { api, early, unwrap } from '../api'

/** The caller as /auth/me answers: user, roles, permissions, linked employee. */
export type Me = Awaited<ReturnType<typeof fetchMe>>

const EMPLOYEE_HINT = 'workforce.employee'

export async function fetchMe() {
  const me = await early('me', () => unwrap(api.auth.me.get()))
  localStorage.setItem(EMPLOYEE_HINT, me.employee ? '1' : '0')
  return me
}

/** Whether the caller may be an employee (was one, or is not known yet here): today's card is fetched beside /auth/me. */
export const wasEmployee = () => localStorage.getItem(EMPLOYEE_HINT) !== '0'

export const ME_KEY = ['me'] as const

/** The signed-in caller; pages and the navigation decide from its permissions what to show. */
export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 60_000 })
}

/** Whether the caller's roles grant a permission (the API decides again on every call). */
export const can = (me: Me | undefined, permission: string): boolean => !!me?.permissions.includes(permission)
