import { Elysia } from 'elysia'

/**
 * Until the web console exists, `/` sends people to the docs page. It is no route (the route table lists
 * the API, each entry with its guard), only the not-found answer for GET and HEAD of exactly `/`: every
 * other unknown path stays the JSON 404. 302, not 301/308, because browsers keep those for good and the
 * console will take `/` over; for GET and HEAD, 302 and 307 behave alike.
 */
export const home = () =>
  new Elysia({ name: 'home' }).onError({ as: 'global' }, ({ code, request }) => {
    if (code !== 'NOT_FOUND' || (request.method !== 'GET' && request.method !== 'HEAD')) return
    if (new URL(request.url).pathname !== '/') return
    return new Response(null, { status: 302, headers: { location: '/swagger' } })
  })
