import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clientTypes } from './client-types'
import { ADMIN_PASSWORD, req, startApp, type TestApp } from './helpers'

/*
 * A client generated from /swagger/json (openapi-typescript types + openapi-fetch) must type-check
 * and work: the types are generated from the document of a fresh service, a short program written
 * against them is type-checked with tsc, and then run, through app.handle (so every answer is also
 * checked against the document by the test helpers' hook).
 */

const ROOT = join(import.meta.dir, '..')

/** Sign in, create a department, list departments: what a client written against the document does. */
const CLIENT = `import createClient from 'openapi-fetch'
import type { paths } from './api'

export async function flow(fetch: (request: Request) => Promise<Response>, password: string) {
  const client = createClient<paths>({ baseUrl: 'http://localhost', fetch })
  const signedIn = await client.POST('/api/v1/auth/login', { body: { username: 'admin', password } })
  if (!signedIn.data) throw new Error(\`sign-in: \${signedIn.error?.message}\`)
  const token: string = signedIn.data.data.access_token
  const headers = { authorization: \`Bearer \${token}\` }

  const created = await client.POST('/api/v1/admin/departments', { headers, body: { name: 'Research' } })
  if (!created.data) throw new Error(\`create: \${created.error?.message}\`)
  const id: number = created.data.data.id

  const listed = await client.GET('/api/v1/admin/departments', { headers, params: { query: { page: 1, page_size: 10, name: 'res' } } })
  if (!listed.data) throw new Error(\`list: \${listed.error?.message}\`)
  const departments: { id: number; name: string }[] = listed.data.data.departments
  return { id, status: created.response.status, departments: departments.map(({ id, name }) => ({ id, name })), total: listed.data.data.total }
}

/** Never called: the types must refuse what the document does not allow (were they \`any\`, these would be unused). */
export function refused(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error: a path the document does not have
  void client.GET('/api/v1/admin/department')
  // @ts-expect-error: a department needs a name
  void client.POST('/api/v1/admin/departments', { body: {} })
}
`

/** A folder with the generated types, the client program and a tsconfig that extends the project's. */
async function clientFolder(document: object): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'workforce-client-'))
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  await Bun.write(join(dir, 'api.d.ts'), await clientTypes(document))
  await Bun.write(join(dir, 'client.ts'), CLIENT)
  // the generated file is checked too (the project skips the checks of .d.ts files)
  await Bun.write(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), compilerOptions: { skipLibCheck: false }, include: ['client.ts', 'api.d.ts'] }),
  )
  return dir
}

/** `tsc --noEmit` on the folder: its exit code and what it printed. */
async function typeCheck(dir: string): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn([join(ROOT, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, output: `${stdout}${stderr}` }
}

describe('a typed client generated from the document', () => {
  let t: TestApp
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let document: any
  const folders: string[] = []
  beforeAll(async () => {
    t = await startApp()
    document = (await req(t.app, 'GET', '/swagger/json')).body
  })
  afterAll(() => {
    t.close()
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  })

  test('type-checks, and signs in, creates a department and lists it', async () => {
    const dir = await clientFolder(document)
    folders.push(dir)
    expect(await typeCheck(dir)).toEqual({ code: 0, output: '' })

    const { flow } = await import(join(dir, 'client.ts'))
    expect(await flow((request: Request) => t.app.handle(request), ADMIN_PASSWORD)).toEqual({
      id: 1,
      status: 201,
      departments: [{ id: 1, name: 'Research' }],
      total: 1,
    })
  }, 30_000)

  test('does not type-check once the document loses what the program uses (the sign-in’s access_token)', async () => {
    const broken = structuredClone(document)
    const data = broken.paths['/api/v1/auth/login'].post.responses['200'].content['application/json'].schema.properties.data
    delete data.properties.access_token
    data.required = data.required.filter((name: string) => name !== 'access_token')
    const dir = await clientFolder(broken)
    folders.push(dir)
    const { code, output } = await typeCheck(dir)
    expect(code).not.toBe(0)
    expect(output).toContain("Property 'access_token' does not exist")
  }, 30_000)
})
