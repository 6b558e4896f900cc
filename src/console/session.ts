/**
 * The signed-in session: the token pair, kept in localStorage so a reload stays signed in. The
 * access token is short-lived; api.ts trades the refresh token for a new pair when it expires.
 */
export interface Tokens {
  access_token: string
  refresh_token: string
}

const KEY = 'workforce.session'
const listeners = new Set<() => void>()

function read(): Tokens | null {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Tokens | null
    return value && typeof value.access_token === 'string' && typeof value.refresh_token === 'string' ? value : null
  } catch {
    return null
  }
}

let current = read()

export const session = {
  get: (): Tokens | null => current,
  set(tokens: Tokens | null) {
    current = tokens ? { access_token: tokens.access_token, refresh_token: tokens.refresh_token } : null
    if (current) localStorage.setItem(KEY, JSON.stringify(current))
    else localStorage.removeItem(KEY)
    listeners.forEach((listener) => listener())
  },
  /** for useSyncExternalStore */
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

// another tab signed in or out
window.addEventListener('storage', (event) => {
  if (event.key !== KEY) return
  current = read()
  listeners.forEach((listener) => listener())
})
