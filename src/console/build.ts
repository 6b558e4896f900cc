import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants } from 'node:zlib'

/**
 * Builds the web console with Bun's bundler: `index.html` and everything it reaches, minified, split
 * into chunks per page group, every file but `index.html` under `assets/` with its content's hash in
 * its name and, beside it, its brotli form at the best quality (`.br`) (so the service may let browsers keep them for a year). The output goes to `dist/` beside
 * this file, which the service serves (src/http/console.ts); `build-info.json` there lists each file
 * with its gzipped size, for the budget test and the benchmark.
 *
 *   bun src/console/build.ts             build
 *   bun src/console/build.ts --if-stale  build only when dist/ is missing or older than a source file
 */

export const CONSOLE_SOURCE = import.meta.dir
export const CONSOLE_DIST = join(import.meta.dir, 'dist')
const INFO = 'build-info.json'

export interface BuildInfo {
  /** when it was built, ms since the epoch */
  builtAt: number
  files: { path: string; kind: string; bytes: number; gzipBytes: number }[]
}

const brotliAsync = promisify(brotliCompress)
const brotli = async (bytes: Uint8Array) =>
  brotliAsync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  })

/** Source files of the console (what a build reads besides node_modules). */
function sources(dir = CONSOLE_SOURCE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'screenshots' ? [] : sources(path)
    return [path]
  })
}

/** dist/ is missing, or a source file (or the lock file, for a library's update) changed after it was built. */
export function isStale(dist = CONSOLE_DIST): boolean {
  const info = join(dist, INFO)
  if (!existsSync(info)) return true
  const builtAt = statSync(info).mtimeMs
  const lock = join(CONSOLE_SOURCE, '..', '..', 'bun.lock')
  return [...sources(), ...(existsSync(lock) ? [lock] : [])].some((file) => statSync(file).mtimeMs > builtAt)
}

/** Builds into a fresh folder beside `dist`, then swaps it in, so a running service never sees half a build. */
export async function buildConsole(dist = CONSOLE_DIST): Promise<BuildInfo> {
  const staging = `${dist}.building-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  const result = await Bun.build({
    entrypoints: [join(CONSOLE_SOURCE, 'index.html')],
    outdir: staging,
    root: CONSOLE_SOURCE,
    publicPath: '/',
    minify: true,
    splitting: true,
    sourcemap: 'none',
    target: 'browser',
    naming: { entry: '[name].[ext]', chunk: 'assets/[name]-[hash].[ext]', asset: 'assets/[name]-[hash].[ext]' },
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  if (!result.success) {
    rmSync(staging, { recursive: true, force: true })
    throw new AggregateError(result.logs, `The console did not build:\n${result.logs.map(String).join('\n')}`)
  }
  // boot.ts on its own, first in the page (an HTML entry's scripts would be bundled into one)
  const boot = await Bun.build({
    entrypoints: [join(CONSOLE_SOURCE, 'boot.ts')],
    outdir: join(staging, 'assets'),
    minify: true,
    target: 'browser',
    naming: '[name]-[hash].[ext]',
  })
  if (!boot.success) {
    rmSync(staging, { recursive: true, force: true })
    throw new AggregateError(boot.logs, `The console's boot script did not build:\n${boot.logs.map(String).join('\n')}`)
  }
  const bootUrl = `/assets/${relative(join(staging, 'assets'), boot.outputs[0].path)}`
  const page = join(staging, 'index.html')
  // before the stylesheet too: nothing it does waits for styles
  writeFileSync(page, readFileSync(page, 'utf8').replace('<link rel="stylesheet"', `<script type="module" async src="${bootUrl}"></script><link rel="stylesheet"`))

  const files: BuildInfo['files'] = []
  for (const output of [...result.outputs, ...boot.outputs]) {
    const bytes = new Uint8Array(await output.arrayBuffer())
    const path = relative(staging, output.path)
    files.push({ path, kind: output.kind, bytes: bytes.byteLength, gzipBytes: Bun.gzipSync(bytes).byteLength })
    // brotli at its best once here (seconds for every file) rather than quality 9 in the service per start
    if (path.startsWith('assets/') && /\.(js|css|svg)$/.test(path)) writeFileSync(`${output.path}.br`, await brotli(bytes))
  }
  const info: BuildInfo = { builtAt: Date.now(), files: files.sort((a, b) => a.path.localeCompare(b.path)) }
  writeFileSync(join(staging, INFO), `${JSON.stringify(info, null, 2)}\n`)
  const old = `${dist}.old-${process.pid}`
  if (existsSync(dist)) renameSync(dist, old)
  renameSync(staging, dist)
  rmSync(old, { recursive: true, force: true })
  return info
}

if (import.meta.main) {
  const ifStale = process.argv.includes('--if-stale')
  if (ifStale && !isStale()) process.exit(0)
  const started = performance.now()
  try {
    const info = await buildConsole()
    const js = info.files.filter((file) => file.path.endsWith('.js')).reduce((sum, file) => sum + file.gzipBytes, 0)
    console.log(`The console is built in ${Math.round(performance.now() - started)} ms: ${info.files.length} files, ${(js / 1024).toFixed(1)} KB of JavaScript gzipped in all`)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
}
