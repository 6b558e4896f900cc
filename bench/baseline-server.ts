/** B1: a bare Elysia JSON route, the ceiling for any route of the service on this machine. */
import { Elysia } from 'elysia'

const app = new Elysia()
  .get('/ping', () => ({ code: 200, message: 'success', data: { ok: true }, timestamp: new Date().toISOString() }))
  .listen({ port: Number(process.env.PORT), hostname: '127.0.0.1', reusePort: true })
console.log(`baseline listening on ${app.server?.port}`)
