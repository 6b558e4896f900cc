import { say } from './messages'
import { Elysia } from 'elysia'
import { docsAsset, docsPage } from './docs-assets'
import { NotFoundError } from './errors'
import { openApiDocument } from './openapi'
import { CACHE_IMMUTABLE, sendAsset } from './static-assets'

/** Everything the page loads is served from here, so it works without internet access. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * The OpenAPI document at /swagger/json is built in ./openapi.ts; the page at
 * /swagger is Swagger UI served from the installed swagger-ui-dist package.
 */
export const docs = (version: string, publicUrl: string) =>
  new Elysia({ name: 'docs' })
    .use(openApiDocument({ version, publicUrl, specPath: '/swagger/json', exclude: ['/swagger', '/swagger/assets/:file'] }))
    .get(
      '/swagger',
      (context) => {
        context.set.headers['content-security-policy'] = DOCS_CSP
        // the page names its assets' versions: a browser asks again each time (304 when unchanged)
        return sendAsset(docsPage(), context, 'no-cache')
      },
      { detail: { hide: true } },
    )
    .get(
      '/swagger/assets/:file',
      (context) => {
        const { file } = context.params
        const asset = docsAsset(file)
        if (!asset) throw new NotFoundError(say.noDocsAsset({ file }))
        const versioned = new URL(context.request.url).searchParams.get('v') === asset.tag
        return sendAsset(asset, context, versioned ? CACHE_IMMUTABLE : 'public, max-age=3600')
      },
      { detail: { hide: true } },
    )
