import { readFileSync } from 'node:fs'
import type { LeadRow } from '../../api/leads/leads-report.ts'
import { staffAccessFile } from '../../api/server.ts'

/**
 * The leads of a server process running on the embedded database in `dataDir`, each with where
 * its notifications are (`delivery` is "sent" once every one is recorded as sent), asked as
 * `npm run leads` asks: the server's internal address and token from its staff access file.
 * What a test waits for when it means "the outbox is done with these leads".
 */
export async function runningServerLeads(dataDir: string): Promise<LeadRow[]> {
  const { url, token } = JSON.parse(readFileSync(staffAccessFile(dataDir), 'utf8')) as { url: string; token: string }
  const since = new Date(Date.now() - 86_400_000).toISOString()
  const res = await fetch(`${url}/internal/leads?since=${encodeURIComponent(since)}`, { headers: { authorization: `Bearer ${token}` } })
  if (!res.ok) throw new Error(`/internal/leads answered ${res.status}`)
  return (await res.json()) as LeadRow[]
}

/** The JSON lines of a server process's output whose `msg` is `msg`. */
export function logLines(output: string, msg: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.includes(`"msg":${JSON.stringify(msg)}`))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}
