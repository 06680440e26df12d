/**
 * `npm run leads -- [--since 7d] [--csv]`: the leads of the last week (or since a date), for
 * staff who do not write SQL. Reads PostgreSQL directly when DATABASE_URL is set; with the
 * embedded database it asks the running server, or opens the data folder when none is running.
 */
import { parseArgs } from 'node:util'
import { loadEnv } from '../api/config/env.ts'
import { openMigratedDatabase } from '../api/db/migrate.ts'
import { type LeadRow, leadsAsCsv, leadsAsText, parseSince, recentLeads } from '../api/leads/leads-report.ts'
import { runningServerAccess } from '../api/server.ts'
import { complain, say, writeData } from '../api/terminal.ts'

const { values } = parseArgs({
  options: {
    since: { type: 'string', default: '7d' },
    csv: { type: 'boolean', default: false },
    spam: { type: 'boolean', default: false },
    help: { type: 'boolean' },
  },
})
if (values.help) {
  say('npm run leads -- [--since 7d|24h|2026-11-01] [--csv > leads.csv] [--spam]')
  process.exit(0)
}

try {
  const since = parseSince(values.since)
  const rows = await readLeads(since)
  if (values.csv) writeData(leadsAsCsv(rows))
  else say(...leadsAsText(rows).split('\n'))
  if (!values.csv) complain('', `${rows.length} lead${rows.length === 1 ? '' : 's'} since ${since.toISOString()}`)
} catch (error) {
  complain((error as Error).message)
  process.exit(1)
}

async function readLeads(since: Date): Promise<LeadRow[]> {
  const env = loadEnv()
  const access = runningServerAccess(env)
  if (access) {
    const { url, token } = access
    try {
      const res = await fetch(`${url}/internal/leads?since=${encodeURIComponent(since.toISOString())}${values.spam ? '&spam=1' : ''}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      if (res.ok) return (await res.json()) as LeadRow[]
    } catch {
      // The server that wrote the file is gone; read the folder directly below.
    }
  }
  const db = await openMigratedDatabase(env)
  try {
    return await recentLeads(db.sql, since, { spam: values.spam })
  } finally {
    await db.close()
  }
}
