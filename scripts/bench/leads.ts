import { openDatabase, type Sql } from '../../api/db/database.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { backendKinds, postgresAdminUrl } from './api-sections.ts'
import { benchDatabase, measure, measureMedian, startSiteProcess } from './api.ts'
import { benchPassword as password, signInForBench } from './staff.ts'

/**
 * The lead inbox with 100,000 leads (issue #18): the first page (what an open inbox asks every
 * 5 seconds), a filtered page, a search by name and one by phone number, and the dashboard,
 * each read by 2 connections at once (a few people at the console).
 */
export const benchLeads = 100_000
const load = { connections: 2, seconds: 2 }

const reads: { label: string; path: string; input: object }[] = [
  { label: 'first page', path: 'staff.lead.list', input: { limit: 50 } },
  { label: 'filtered page (status, interest, owner; page 3)', path: 'staff.lead.list', input: { status: 'quoted', interest: 'evolution', owner: 'none', offset: 100, limit: 50 } },
  { label: 'search by name', path: 'staff.lead.list', input: { q: 'whitaker', limit: 50 } },
  { label: 'search by phone', path: 'staff.lead.list', input: { q: '(609) 555-4242', limit: 50 } },
  { label: 'dashboard, 12 weeks', path: 'staff.lead.dashboard', input: {} },
]

export async function leadInbox(): Promise<string> {
  const lines = [
    `| database | leads | ${reads.map((r) => `${r.label} p50 / p99`).join(' | ')} |`,
    `| --- | ---: | ${reads.map(() => '---:').join(' | ')} |`,
  ]
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    try {
      const opened = await openDatabase({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? null })
      try {
        const staff = await createUserStore(opened.sql).add('bench', password)
        await generateLeads(opened.sql, staff.id)
      } finally {
        await opened.close()
      }
      const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info' })
      try {
        const cookie = await signInForBench(site.url)
        const cells = []
        for (const read of reads) {
          const url = `${site.url}/trpc/${read.path}?input=${encodeURIComponent(JSON.stringify(read.input))}`
          const check = await fetch(url, { headers: { cookie } })
          if (!check.ok) throw new Error(`${read.path} answered ${check.status}: ${await check.text()}`)
          await measure(url, { connections: 2, seconds: 1 }, { headers: { cookie } })
          const result = await measureMedian(url, load, { headers: { cookie } })
          cells.push(`${result.p50} / ${result.p99} ms${result.errors ? ` (${result.errors} errors)` : ''}`)
        }
        lines.push(`| ${db.description} | ${benchLeads.toLocaleString('en-US')} | ${cells.join(' | ')} |`)
      } finally {
        await site.stop()
      }
    } finally {
      await db.drop()
    }
  }
  return lines.join('\n')
}

/**
 * 100,000 leads, one every 10 minutes back over almost two years: 20 first and 50 last names,
 * every interest, 30 pages and 10 embed labels, every status, a fifth owned, each with its
 * dealer email (1 in 50 failing), a few with spam among them. Then statistics, as a running
 * server has them (autovacuum on PostgreSQL, the server's hourly `analyze` on the embedded one).
 */
export async function generateLeads(sql: Sql, ownerId: number) {
  await sql`
    insert into contact_inquiries
      (first_name, last_name, email, phone, interest, message, source_url, source_label, status,
       owner_id, first_response_at, spam_reason, created_at)
    select
      (array['Ana','Ben','Carla','Dev','Elena','Frank','Gia','Hector','Ivy','Jon','Kim','Luis','Mia','Nate','Olga','Pete','Quinn','Rosa','Sam','Tara'])[1 + i % 20],
      (array['Whitaker','Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis','Rodriguez',
             'Martinez','Hernandez','Lopez','Gonzalez','Wilson','Anderson','Thomas','Taylor','Moore','Jackson',
             'Martin','Lee','Perez','Thompson','White','Harris','Sanchez','Clark','Ramirez','Lewis',
             'Robinson','Walker','Young','Allen','King','Wright','Scott','Torres','Nguyen','Hill',
             'Flores','Green','Adams','Nelson','Baker','Hall','Rivera','Campbell','Mitchell','Carter'])[1 + (i * 7) % 50],
      'lead' || i || '@example.com',
      '(609) 555-' || lpad((i % 10000)::text, 4, '0'),
      (array['denago','evolution','swift-ev','rentals','service',null])[1 + i % 6],
      'Looking for a six-seater for the summer, generated lead number ' || i || '.',
      'https://partner' || (i % 30) || '.example/golf-carts',
      case when i % 3 = 0 then 'embed-' || (i % 10) end,
      (array['new','contacted','quoted','won','lost'])[1 + (i * 13) % 5],
      case when i % 5 = 0 then ${ownerId}::int end,
      case when (i * 13) % 5 <> 0 then now() - i * interval '10 minutes' + (i % 120) * interval '1 minute' end,
      case when i % 97 = 0 then 'honeypot' end,
      now() - i * interval '10 minutes'
    from generate_series(1, ${benchLeads}) as i
  `
  await sql`
    insert into outbox_messages (inquiry_id, kind, attempts, next_attempt_at, last_error, sent_at)
    select id, 'dealer-email', case when id % 50 = 0 then 3 else 1 end, now() + interval '1 hour',
           case when id % 50 = 0 then 'mail server: 421 try again later' end,
           case when id % 50 <> 0 then created_at + interval '5 seconds' end
    from contact_inquiries where spam_reason is null
  `
  await sql`vacuum analyze contact_inquiries`
  await sql`vacuum analyze outbox_messages`
}

