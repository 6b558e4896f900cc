import { plugin } from 'bun'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'

/*
 * TypeScript types for a typed client (openapi-fetch), generated from the OpenAPI document by
 * openapi-typescript. `bun run client:types [url]` writes them to test/generated/api.d.ts (not
 * committed: generated), from the document a running service serves at `url` or, without one,
 * from a fresh service in this process; test/typed-client.test.ts generates its own.
 *
 * openapi-typescript builds its output with TypeScript's JavaScript API, which TypeScript 7 no
 * longer has (openapi-ts/openapi-typescript#2841); it gets TypeScript 6's, installed beside ours
 * as @typescript/typescript6, while the project keeps type-checking with TypeScript 7.
 */

const typescript6 = require.resolve('@typescript/typescript6')
plugin({
  name: 'TypeScript 6 for openapi-typescript',
  setup(build) {
    build.onLoad({ filter: /[\\/]openapi-typescript[\\/]dist[\\/].*\.mjs$/ }, async ({ path }) => ({
      contents: (await Bun.file(path).text()).replaceAll(`from 'typescript'`, `from ${JSON.stringify(typescript6)}`),
      loader: 'js',
    }))
  },
})

/** The `paths`/`components` types of a document, as the text of a .d.ts file. */
export async function clientTypes(document: object): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript')
  return astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]))
}

if (import.meta.main) {
  const url = process.argv[2]
  let document: object
  if (url) document = (await (await fetch(new URL('swagger/json', url.endsWith('/') ? url : `${url}/`))).json()) as object
  else {
    const { req, startApp } = await import('./helpers')
    const t = await startApp()
    document = (await req(t.app, 'GET', '/swagger/json')).body
    t.close()
  }
  const out = join(import.meta.dir, 'generated', 'api.d.ts')
  mkdirSync(dirname(out), { recursive: true })
  await Bun.write(out, await clientTypes(document))
  console.log(`wrote ${out}`)
}
