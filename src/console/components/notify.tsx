import { lazy, Suspense, useSyncExternalStore } from 'react'
import { ApiError } from '../api'
import { language } from '../i18n'
import { common as en } from '../i18n/en/common'
import { common as zh } from '../i18n/zh/common'

/*
 * Toasts (Mantine's notifications) load with the first one shown: most visits of an employee's
 * phone never show one, and the first page stays small.
 */
let wanted = false
const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function toasts() {
  if (!wanted) {
    wanted = true
    listeners.forEach((listener) => listener())
  }
  return import('@mantine/notifications')
}

const Notifications = lazy(() => import('@mantine/notifications').then((module) => ({ default: module.Notifications })))

/** Where toasts appear, once the first is shown. */
export function Toasts() {
  const on = useSyncExternalStore(subscribe, () => wanted)
  return on ? (
    <Suspense fallback={null}>
      <Notifications position="top-center" />
    </Suspense>
  ) : null
}

const closeLabel = () => ({ 'aria-label': (language() === 'zh' ? zh : en).close })

/** A toast for a change that worked. */
export const notifySaved = (message: string) => void toasts().then(({ notifications }) => notifications.show({ color: 'green', message, autoClose: 3000, closeButtonProps: closeLabel() }))

/** A toast for a request that worked but changed nothing (no green: nothing was done). */
export const notifyNothing = (message: string) => void toasts().then(({ notifications }) => notifications.show({ color: 'yellow', message, autoClose: 6000, closeButtonProps: closeLabel() }))

/** A toast with the API's own message for a change that did not. */
export function notifyFailed(error: unknown, title?: string) {
  const message = error instanceof ApiError || error instanceof Error ? error.message : String(error)
  void toasts().then(({ notifications }) => notifications.show({ color: 'red', title, message, autoClose: 8000, closeButtonProps: closeLabel() }))
}
