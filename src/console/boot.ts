/*
 * The first script of the page, a few hundred bytes: for a signed-in browser it asks at once for
 * what today's card needs (/auth/me, and for an employee /attendance/today and /attendance/rule),
 * while the application's code is still downloading; api.ts `early` takes the answers. On a slow
 * phone network this saves the round trip that would otherwise follow the download.
 *
 * It imports nothing (an import would be another request before it runs), so it names the storage
 * keys itself: the same as session.ts ('workforce.session'), components/me.ts ('workforce.employee')
 * and i18n/index.tsx ('workforce.language').
 */
type Early = Partial<Record<'me' | 'today' | 'rule', Promise<Response>>>

try {
  const tokens = JSON.parse(localStorage.getItem('workforce.session') ?? 'null') as { access_token?: unknown } | null
  if (tokens && typeof tokens.access_token === 'string') {
    // the language the console will pick (i18n/index.tsx `initial`), so the answers' texts are in it: the
    // chosen one, else the browser's first of zh and en (the API takes the first too), else English
    const chosen = localStorage.getItem('workforce.language')
    const headers = {
      authorization: `Bearer ${tokens.access_token}`,
      'accept-language': chosen ?? `${navigator.languages.join(',')},en;q=0.01`,
    }
    const get = (path: string) => fetch(`/api/v1/${path}`, { headers })
    const early: Early = { me: get('auth/me') }
    // '0': this browser's account has no employee, so it has no card to show
    if (localStorage.getItem('workforce.employee') !== '0') Object.assign(early, { today: get('attendance/today'), rule: get('attendance/rule') })
    ;(window as { __workforceEarly?: Early }).__workforceEarly = early
  }
} catch {
  // no storage, or a session that is not ours: the application asks itself
}
