import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import express, { type Request, type Response, type Router } from 'express'
import { releaseVersionPattern, type WidgetRelease, widgetPaths, widgetReleaseFile } from '../../domain/widget-releases.ts'
import type { Sql } from '../db/database.ts'
import { sendError } from './errors.ts'
import { describeError, type Logger } from '../log.ts'

/** One file of a release, as stored and served. */
interface ReleaseFile {
  body: Buffer
  br: Buffer | null
  gzip: Buffer | null
}

export interface ListedRelease {
  version: string
  integrity: string
  releasedAt: string
}

/** The build this server runs, from `release.json` beside its loader; none for an old build. */
export function readWidgetRelease(dir: string): WidgetRelease | undefined {
  const file = join(dir, widgetReleaseFile)
  if (!existsSync(file)) return undefined
  const release = JSON.parse(readFileSync(file, 'utf8')) as WidgetRelease
  if (!releaseVersionPattern.test(release.version)) throw new Error(`${file} names no release version: ${release.version}`)
  return release
}

function readBuiltFile(dir: string, path: string): ReleaseFile {
  const optional = (suffix: string) => (existsSync(join(dir, path + suffix)) ? readFileSync(join(dir, path + suffix)) : null)
  return { body: readFileSync(join(dir, path)), br: optional('.br'), gzip: optional('.gz') }
}

/**
 * The releases every process on this database serves. A release's files never change once
 * stored, so each process keeps the ones it has served in memory for good: a cache of things
 * that cannot change needs no invalidation (PRODUCT.md, "When one machine is not enough").
 */
export function createWidgetReleaseStore(sql: Sql) {
  const kept = new Map<string, ReleaseFile | null>()
  return {
    /** Stores a build (once: a release that is already there is left exactly as it was). */
    async store(release: WidgetRelease, dir: string): Promise<boolean> {
      const files = release.files.map((path) => ({ path, ...readBuiltFile(dir, path) }))
      return sql.begin(async (tx) => {
        const added = await tx`
          insert into widget_releases (version, integrity) values (${release.version}, ${release.integrity})
          on conflict (version) do nothing
          returning version
        `
        if (added.length === 0) return false
        for (const file of files) {
          await tx`
            insert into widget_release_files (version, path, body, body_br, body_gzip)
            values (${release.version}, ${file.path}, ${file.body}, ${file.br}, ${file.gzip})
          `
        }
        return true
      })
    },

    /** Newest first. */
    list(): Promise<ListedRelease[]> {
      return sql<ListedRelease[]>`
        select version, integrity, to_char(released_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as released_at
        from widget_releases order by released_at desc, version desc
      `
    },

    async file(version: string, path: string): Promise<ReleaseFile | null> {
      const key = `${version}/${path}`
      if (kept.has(key)) return kept.get(key)!
      const [row] = await sql<{ body: Buffer; bodyBr: Buffer | null; bodyGzip: Buffer | null }[]>`
        select body, body_br, body_gzip from widget_release_files where version = ${version} and path = ${path}
      `
      const file = row ? { body: row.body, br: row.bodyBr, gzip: row.bodyGzip } : null
      // A miss is not kept: the release may be stored by another process a moment later.
      if (file) kept.set(key, file)
      return file
    },
  }
}

export type WidgetReleaseStore = ReturnType<typeof createWidgetReleaseStore>

/**
 * `/widgets/versions.json` and `/widgets/v/<version>/...` (mounted under `/widgets`). The build
 * this server runs is served from its folder at once; it is also stored in the database in the
 * background, so it stays served after the next upgrade, by every process. A database that is
 * down when the server starts only delays that: the next start stores it.
 */
export function widgetReleases(options: { sql: Sql; dir: string; siteUrl: string; log: Logger }): Router {
  const store = createWidgetReleaseStore(options.sql)
  const current = readWidgetRelease(options.dir)
  if (current) {
    void store.store(current, options.dir).then(
      (stored) => stored && options.log.info('widget release stored', { version: current.version }),
      (error: unknown) => options.log.warn('widget release not stored yet', { version: current.version, error: describeError(error) }),
    )
  }
  const builtFiles = new Map<string, ReleaseFile>()
  const currentFile = (path: string) => {
    if (!current?.files.includes(path)) return null
    if (!builtFiles.has(path)) builtFiles.set(path, readBuiltFile(options.dir, path))
    return builtFiles.get(path)!
  }
  const shared = (res: Response) =>
    res.set({ 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin', Vary: 'Accept-Encoding' })

  const routes = express.Router()
  routes.get('/versions.json', async (_req, res, next) => {
    try {
      const stored = await store.list()
      const releases = current && !stored.some((r) => r.version === current.version)
        ? [{ version: current.version, integrity: current.integrity, releasedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }, ...stored]
        : stored
      const listed = releases.map((r) => ({ ...r, loader: `${options.siteUrl}${widgetPaths.pinned(r.version)}` }))
      shared(res).set('Cache-Control', 'public, max-age=300')
      res.json({ latest: current?.version ?? listed[0]?.version ?? null, newest: `${options.siteUrl}${widgetPaths.loader}`, versions: listed })
    } catch (error) {
      next(error)
    }
  })

  routes.get('/v/:version/*path', async (req: Request, res, next) => {
    try {
      const version = String(req.params.version)
      const path = ([] as string[]).concat(req.params.path ?? []).join('/')
      const missing = () => sendError(res, 404, `No widget file at ${req.path.slice(0, 200)}`)
      if (!releaseVersionPattern.test(version)) return missing()
      const file = current?.version === version ? currentFile(path) : await store.file(version, path)
      if (!file) return missing()
      const accepts = req.acceptsEncodings('br', 'gzip', 'identity')
      const [body, encoding] = accepts === 'br' && file.br ? [file.br, 'br'] : accepts === 'gzip' && file.gzip ? [file.gzip, 'gzip'] : [file.body, undefined]
      shared(res).set({
        'Content-Type': path.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
        // The same address always holds the same bytes: a year, for browsers and any CDN.
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Length': String(body.length),
        ...(encoding ? { 'Content-Encoding': encoding } : {}),
      })
      res.end(req.method === 'HEAD' ? undefined : body)
    } catch (error) {
      next(error)
    }
  })
  return routes
}
