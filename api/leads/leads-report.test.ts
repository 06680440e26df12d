import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../db/database.ts'
import { migrate } from '../db/migrate.ts'
import { createInquiryStore } from '../inquiries/inquiry-store.ts'
import { visible } from '../terminal.ts'
import { type LeadRow, leadsAsCsv, leadsAsText } from './leads-report.ts'
import { templateDataDir } from '../../tests/support/database-templates.ts'
import { npmCommandArgs } from '../../tests/support/server-process.ts'

/** `npm run leads` against what a hostile visitor types (issue #11, point 5). */
const row = (over: Partial<LeadRow>): LeadRow => ({
  id: 7,
  receivedAt: '2026-11-21T15:04:00.000Z',
  firstName: 'Dana',
  lastName: 'Whitaker',
  email: 'dana@example.com',
  phone: null,
  interest: null,
  cart: null,
  cartPrice: null,
  message: null,
  sourceUrl: null,
  sourceLabel: null,
  delivery: 'sent',
  status: 'new',
  owner: null,
  ...over,
})

// Clear screen, red text, a hidden OSC 8 link, a bell, a right-to-left override, a C1 CSI.
const hostile = 'Dana\u001b[2J\u001b[31m\u001b]8;;https://evil.test\u0007click\u001b]8;;\u0007\u202eevil\u009b1m'

describe('leads as text', () => {
  it('shows escape sequences and invisible characters instead of obeying them', () => {
    const text = leadsAsText([row({ firstName: hostile, message: `Hi\u001b[2J`, sourceLabel: 'x\u0008y' })])
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/)
    expect(text).toContain('Dana\u241b[2J\u241b[31m\u241b]8;;https://evil.test\u2407click')
    expect(text).toContain('<U+202E>evil<U+009B>1m')
    expect(text).toContain('Message: Hi\u241b[2J')
    expect(text).toContain('From: x\u2408y')
  })

  it('cannot be made to print a forged entry by a line break in a name', () => {
    const text = leadsAsText([row({ lastName: 'Smith\n\n#1  Monday, January 5, 2026 at 9:00 AM EST\n  Boss Man <boss@dealer.example>' })])
    expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual([expect.stringMatching(/^#7 /)])
    expect(text).toContain('Smith\u240a\u240a#1  Monday')
  })

  it('says where staff are with the lead and who owns it', () => {
    expect(leadsAsText([row({ status: 'quoted', owner: 'devon' })])).toContain('\n  Status: Quoted, owner devon\n')
    expect(leadsAsText([row({})])).toContain('\n  Status: New, nobody owns it\n')
  })

  it('keeps a message\'s own lines readable', () => {
    expect(leadsAsText([row({ message: 'Two carts\r\n  for the weekend\nplease' })])).toContain('Message: Two carts / for the weekend / please')
  })
})

describe('leads as CSV', () => {
  const cells = (csv: string) => csv.split('\r\n')[1]!

  it('quotes a cell with a semicolon, so a spreadsheet that splits on ";" gets no live formula', () => {
    const line = cells(leadsAsCsv([row({ lastName: 'x;=HYPERLINK("https://evil.test","Click")', message: 'a;b' })]))
    expect(line).toContain(',"x;=HYPERLINK(""https://evil.test"",""Click"")",')
    expect(line).toContain(',"a;b",')
    // Split the way such a spreadsheet would, quotes respected: no cell starts a formula.
    const split = line.match(/("([^"]|"")*"|[^,;]*)/g)!.filter(Boolean)
    expect(split.some((c) => /^[=+\-@]/.test(c))).toBe(false)
  })

  it('still marks cells that start like a formula', () => {
    const line = cells(leadsAsCsv([row({ firstName: '=1+1', lastName: '@SUM(A1)', phone: '+1 609', message: '-2' })]))
    expect(line).toContain(",'=1+1,'@SUM(A1),dana@example.com,'+1 609,")
    expect(line).toContain(",'-2,")
  })

  it('shows control characters but keeps a message\'s line breaks inside its quotes', () => {
    const csv = leadsAsCsv([row({ firstName: hostile, message: 'one\ntwo' })])
    expect(csv).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u202e]/)
    expect(csv).toContain('"one\ntwo"')
  })
})

describe('npm run leads', () => {
  it('prints a hostile lead harmlessly on the terminal', async () => {
    const dataDir = templateDataDir('gc-leads-', 'migrated')
    const db = await openDatabase({ dataDir })
    try {
      await migrate(db.sql)
      await createInquiryStore(db.sql).add({
        firstName: hostile,
        lastName: 'Smith\n#99  forged',
        email: 'hostile@example.com',
        interest: '',
        elapsedMs: 9000,
      })
    } finally {
      await db.close()
    }
    const root = fileURLToPath(new URL('../../', import.meta.url))
    const run = spawnSync(process.execPath, npmCommandArgs('leads'), {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('hostile@example.com')
    expect(run.stdout).toContain('  Status: New, nobody owns it')
    expect(run.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]/)
    expect(run.stdout.split('\n').filter((line) => line.startsWith('#'))).toHaveLength(1)
  }, 90_000)
})

it('visible() leaves ordinary text, accents and emoji alone', () => {
  expect(visible("Zoë O'Neill-Pérez 🚗 (609) 555-0101")).toBe("Zoë O'Neill-Pérez 🚗 (609) 555-0101")
})
