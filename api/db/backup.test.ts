import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gunzipSync, gzipSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addStaff, signedInClient } from '../../tests/support/staff.ts'
import { backends, createTestDatabase } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createLogger } from '../log.ts'
import { BackupError, checkBackup, restoreBackup } from './backup.ts'
import { backupStream, startDailyBackups } from './backup-files.ts'
import type { Sql } from './database.ts'

/**
 * Backups (PRODUCT.md, "backups"): what the site holds after a day's work (carts, a photo, leads
 * with their queued emails, accounts, sessions, notes, the audit log) goes into a backup and
 * comes back whole: every table has the same rows, to the byte, in a database restored from it.
 */
async function tableFacts(sql: Sql): Promise<Record<string, { rows: number; digest: string }>> {
  const tables = await sql<{ name: string }[]>`
    select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' order by 1
  `
  const facts: Record<string, { rows: number; digest: string }> = {}
  for (const { name } of tables) {
    const [row] = await sql.unsafe<[{ rows: number; digest: string }]>(
      `select count(*)::int as rows, md5(coalesce(string_agg(to_jsonb(t)::text, e'\\n' order by to_jsonb(t)::text), '')) as digest from "${name}" t`,
    )
    facts[name] = row
  }
  return facts
}

const bytesOf = async (stream: Readable) => Buffer.concat(await stream.toArray())

describe.each(backends)('backups on %s', (backend) => {
  let server: TestServer
  let backup: Buffer
  let before: Awaited<ReturnType<typeof tableFacts>>

  beforeAll(async () => {
    server = await startTestServer(backend)
    await addStaff(server)
    const { client, cookie } = await signedInClient(server)
    const { carts } = await client.staff.cart.list.query({ q: 'D6 Max GT4' })
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 30, g: 120, b: 90 } } }).jpeg().toBuffer()
    const upload = await fetch(`${server.url}/api/staff/carts/${carts[0]!.id}/photos`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', cookie, origin: server.url },
      body: new Uint8Array(photo),
    })
    expect(upload.status, await upload.clone().text()).toBe(201)
    for (const firstName of ['Ann', 'Bo', 'Cy']) {
      const res = await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName, lastName: 'Lee', email: `${firstName.toLowerCase()}@example.com`, message: 'Is the Ranger still there? Ça va — 🚗' }),
      })
      expect(res.status).toBe(201)
    }
    const { leads } = await client.staff.lead.list.query({})
    await client.staff.lead.addNote.mutate({ id: leads[0]!.id, text: 'Called back, coming Saturday.' })
    // One message sent, one failed once: the backup keeps each one's delivery state.
    await server.db.sql`update outbox_messages set sent_at = now() where id = (select min(id) from outbox_messages)`
    await server.db.sql`update outbox_messages set attempts = 1, last_error = 'SMTP 451' where id = (select max(id) from outbox_messages)`
    // The alert dispatch's first run (a second after the start, later on a busy machine) marks the
    // seeded carts' "listed" events handled. Once every one is, and committed, nothing runs on its
    // own to change a row, so the counts and the backup read the same database: a run between
    // them failed a clean-clone CI run (cart_alert_events: the same 112 rows, another digest).
    await server.runtime.alerts.run()
    await vi.waitFor(async () => {
      const [{ waiting }] = await server.db.sql<[{ waiting: number }]>`select count(*)::int as waiting from cart_alert_events where handled_at is null`
      expect(waiting).toBe(0)
    }, 10_000)
    before = await tableFacts(server.db.sql)
    backup = await bytesOf(backupStream(server.db))
  }, 60_000)
  afterAll(() => server?.close())

  it('holds what a day at the dealership leaves', () => {
    for (const table of ['golf_carts', 'cart_photos', 'cart_photo_files', 'contact_inquiries', 'outbox_messages', 'lead_notes', 'users', 'staff_sessions', 'audit_log', 'schema_migrations']) {
      expect(before[table]?.rows, table).toBeGreaterThan(0)
    }
  })

  it('restores into an empty database with every row of every table, to the byte', { timeout: 60_000 }, async () => {
    const target = await createTestDatabase(backend)
    try {
      const { summary } = await restoreBackup(target.sql, Readable.from(gunzipSync(backup)))
      const after = await tableFacts(target.sql)
      expect(after).toEqual(before)
      expect(Object.keys(summary.counts).sort()).toEqual(Object.keys(before).sort())
      // Sequences go on where they were: the next lead gets a new number, not a restored one's.
      const [{ next }] = await target.sql<[{ next: number }]>`
        insert into contact_inquiries (first_name, last_name, email, interest, message)
        values ('Di', 'Lee', 'di@example.com', 'rentals', 'after the restore') returning id as next
      `
      expect(next).toBeGreaterThan(before.contact_inquiries!.rows)
      // And a restored database is not empty: a second restore into it is refused, changing nothing.
      await expect(restoreBackup(target.sql, Readable.from(gunzipSync(backup)))).rejects.toThrow(/^The database is not empty \(it has \d+ tables/)
    } finally {
      await target.close()
    }
  })

  it('refuses a backup cut short, whole or while restoring', { timeout: 60_000 }, async () => {
    const text = gunzipSync(backup).toString('utf8')
    const cut = text.slice(0, text.lastIndexOf('["end"'))
    await expect(checkBackup(Readable.from(Buffer.from(cut)))).rejects.toThrow('The backup is cut short')
    await expect(checkBackup(Readable.from(Buffer.from('{"not":"a backup"}\n')))).rejects.toThrow(BackupError)
    const target = await createTestDatabase(backend)
    try {
      await expect(restoreBackup(target.sql, Readable.from(Buffer.from(cut)))).rejects.toThrow('The backup is cut short')
      // The rows went with the transaction: only the migrated, empty tables are left.
      expect((await target.sql<[{ n: number }]>`select count(*)::int as n from golf_carts`)[0].n).toBe(0)
    } finally {
      await target.close()
    }
  })

  it('writes one a day into BACKUP_DIR and keeps BACKUP_KEEP of them', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gc-backups-'))
    try {
      const old = ['backup-2026-01-01T03-00-00Z.jsonl.gz', 'backup-2026-01-02T03-00-00Z.jsonl.gz', 'backup-2026-01-03T03-00-00Z.jsonl.gz']
      for (const [i, name] of old.entries()) {
        writeFileSync(join(dir, name), gzipSync('old'))
        utimesSync(join(dir, name), new Date(2026, 0, i + 1), new Date(2026, 0, i + 1))
      }
      writeFileSync(join(dir, 'notes.txt'), 'not a backup: never removed')
      const lines: Record<string, unknown>[] = []
      const log = createLogger('info', (line) => void lines.push(JSON.parse(line)))
      const daily = startDailyBackups({ db: server.db, dir, keep: 2, log, firstCheckMs: 3_600_000 })
      try {
        const written = await daily.check()
        expect(written).toMatch(/backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{6}\.jsonl\.gz$/)
        expect(readdirSync(dir).sort()).toEqual([old[2], written!.split('/').at(-1), 'notes.txt'])
        const { summary } = await checkBackup(Readable.from(gunzipSync(readFileSync(written!))))
        expect(summary.counts.contact_inquiries).toBe(before.contact_inquiries!.rows)
        // The newest is not a day old yet: the next check writes nothing.
        expect(await daily.check()).toBeUndefined()
        expect(lines.filter((l) => l.msg === 'backup written')).toHaveLength(1)
        expect(lines.filter((l) => l.msg === 'old backup removed')).toHaveLength(2)
      } finally {
        await daily.stop()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
