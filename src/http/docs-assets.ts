import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { staticAsset, type StaticAsset } from './static-assets'

const ASSETS = join(import.meta.dir, '..', '..', 'node_modules', 'swagger-ui-dist')
const JS = 'text/javascript;charset=utf-8'
const VENDOR_FILES = new Map([
  ['swagger-ui.css', 'text/css;charset=utf-8'],
  ['swagger-ui-bundle.js', JS],
  ['swagger-ui-standalone-preset.js', JS],
  ['favicon-32x32.png', 'image/png'],
])

// the tags start closed: every operation drawn at once (some 140) is a page Chromium does not finish drawing; a tag opens on a click, or by a deep link
const INIT = `window.ui = SwaggerUIBundle({
  url: '/swagger/json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'none',
  persistAuthorization: true,
})`

/** Read on first use and kept for the life of the process, shared by every app instance in it. */
const assets = new Map<string, StaticAsset>()

/** A file the docs page loads, by name (swagger-ui-dist's files on the list, and init.js); null for any other name. */
export function docsAsset(file: string): StaticAsset | null {
  let asset = assets.get(file)
  if (!asset) {
    const type = VENDOR_FILES.get(file)
    if (file === 'init.js') asset = staticAsset(INIT, JS)
    else if (type) asset = staticAsset(readFileSync(join(ASSETS, file)), type)
    else return null
    assets.set(file, asset)
  }
  return asset
}

/** An asset's URL carries its content's tag, so browsers may keep it for a year and still see a new version at once. */
const assetUrl = (file: string) => `/swagger/assets/${file}?v=${docsAsset(file)!.tag}`

let page: StaticAsset | undefined

/** The docs page: Swagger UI from the installed swagger-ui-dist package, every asset from this service. */
export const docsPage = () =>
  (page ??= staticAsset(
    `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Workforce API</title>
  <link rel="icon" href="${assetUrl('favicon-32x32.png')}" />
  <link rel="stylesheet" href="${assetUrl('swagger-ui.css')}" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${assetUrl('swagger-ui-bundle.js')}"></script>
  <script src="${assetUrl('init.js')}"></script>
</body>
</html>`,
    'text/html; charset=utf-8',
  ))
