import { join } from 'node:path'
import { Elysia } from 'elysia'
import { swagger } from '@elysiajs/swagger'
import { NotFoundError } from './errors'

const ASSETS = join(import.meta.dir, '..', '..', 'node_modules', 'swagger-ui-dist')
const ASSET_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'])

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Workforce API</title>
  <link rel="icon" href="/swagger/assets/favicon-32x32.png" />
  <link rel="stylesheet" href="/swagger/assets/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger/assets/swagger-ui-bundle.js"></script>
  <script src="/swagger/assets/init.js"></script>
</body>
</html>`

const INIT = `window.ui = SwaggerUIBundle({
  url: '/swagger/json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
})`

/** Everything the page loads is served from here, so it works without internet access. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * The OpenAPI document at /swagger/json comes from @elysiajs/swagger; the page at
 * /swagger is Swagger UI served from the installed swagger-ui-dist package.
 */
export const docs = (version: string) =>
  new Elysia({ name: 'docs' })
    .use(
      swagger({
        path: '/swagger',
        specPath: '/swagger/json',
        exclude: ['/swagger', '/swagger/assets/:file'],
        documentation: {
          info: {
            title: 'Workforce API',
            version,
            description:
              'Roles and permissions, departments, attendance, file storage and salaries. Sign in with POST /api/v1/auth/login and send the access token as `Authorization: Bearer <token>` (or use Authorize above).',
          },
          components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        },
      }),
    )
    .get(
      '/swagger',
      ({ set }) => {
        set.headers['content-type'] = 'text/html; charset=utf-8'
        set.headers['content-security-policy'] = DOCS_CSP
        return PAGE
      },
      { detail: { hide: true } },
    )
    .get(
      '/swagger/assets/:file',
      ({ params, set }) => {
        if (params.file === 'init.js') {
          set.headers['content-type'] = 'text/javascript; charset=utf-8'
          return INIT
        }
        if (!ASSET_FILES.has(params.file)) throw new NotFoundError(`No docs asset ${params.file}`)
        set.headers['cache-control'] = 'public, max-age=86400'
        return Bun.file(join(ASSETS, params.file))
      },
      { detail: { hide: true } },
    )
