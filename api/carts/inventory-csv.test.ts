import { describe, expect, it } from 'vitest'
import { inventoryColumns, inventoryCsv, parseInventoryCsv, protectCell, type RowProblem, unprotectCell } from './inventory-csv.ts'
import { withCheckDigit } from '../../domain/vin.ts'

const vin = withCheckDigit('5ZEVD5R44S0000017')
const header = 'stockNumber,title,description,price,condition,status,vin,imageUrl'
const good = `EV-100,2025 Evolution D5 Ranger 4 Plus,"Four seats, lead-acid.",11995,new,available,${vin},/images/carts/2025-evolution-d5-ranger-4-plus.svg`

function problemsOf(csv: string): RowProblem[] {
  const result = parseInventoryCsv(csv)
  return result.ok ? [] : result.problems
}

/** The file with one row changed: `cells` replace the good row's cells by column name. */
function withRow(cells: Record<string, string>): string {
  const names = header.split(',')
  const values = parseInventoryCsv(`${header}\n${good}`)
  if (!values.ok) throw new Error('the good row must parse')
  const row = names.map((name) => {
    if (name in cells) return cells[name]!
    const value = (values.rows[0]!.record as Record<string, unknown>)[name]
    const text = typeof value === 'string' ? value : JSON.stringify(value ?? '')
    return `"${text.replaceAll('"', '""')}"`
  })
  return `${header}\n${row.join(',')}`
}

describe('reading an inventory file', () => {
  it('reads a good row into a cart record, with line numbers counted from the header', () => {
    const result = parseInventoryCsv(`${header}\n${good}\n`)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.rows).toHaveLength(1)
    expect(result.rows[0]!.line).toBe(2)
    expect(result.rows[0]!.record).toMatchObject({ stockNumber: 'EV-100', price: 11995, vin, condition: 'new', status: 'available' })
  })

  it('accepts prices as spreadsheets write them', () => {
    for (const price of ['12995', '"12,995.00"', '$12995', '" 12995 "']) {
      const result = parseInventoryCsv(withRow({ price }))
      expect(result.ok, price).toBe(true)
      if (result.ok) expect(result.rows[0]!.record.price).toBe(12995)
    }
  })
})

describe('the location column', () => {
  const located = (cell: string) => {
    const result = parseInventoryCsv(`${header},location\n${good},${cell}`)
    return result.ok ? result.rows[0]!.record.location : result.problems
  }

  it('takes a showroom by its key or by its name as people type it', () => {
    expect(located('pleasantville')).toBe('pleasantville')
    expect(located('Ocean View')).toBe('ocean-view')
    expect(located(' BAYVILLE ')).toBe('bayville')
  })

  it('refuses a place that is not one of the showrooms, and a blank cell, naming the showrooms', () => {
    for (const cell of ['Atlantic City', '']) {
      expect(located(cell)).toEqual([{ line: 2, field: 'location', message: expect.stringMatching(/^Location must be one of the showrooms: ocean-view \(Ocean View\), bayville/) }])
    }
  })

  it('puts a new cart from a file without the column at the first showroom, and says the column was not given', () => {
    const result = parseInventoryCsv(`${header}\n${good}`)
    expect(result.ok && result.rows[0]!.record.location).toBe('ocean-view')
    expect(result.ok && result.rows[0]!.given).not.toContain('location')
  })
})

describe('every reason a row is refused', () => {
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ['a VIN with a wrong check digit', { vin: `${vin.slice(0, 8)}${vin[8] === '0' ? '1' : '0'}${vin.slice(9)}` }, 'vin', /check digit/],
    ['a VIN of the wrong length', { vin: 'ABC123' }, 'vin', /17 characters/],
    ['a VIN with an O in it', { vin: 'O'.repeat(17) }, 'vin', /never I, O or Q/],
    ['a price that is not a number', { price: 'call us' }, 'price', /must be a number/],
    ['a negative price', { price: '-5' }, 'price', /cannot be negative/],
    ['a blank price', { price: '' }, 'price', /must be a number/],
    ['an unknown status', { status: 'pending' }, 'status', /available, hold or sold/],
    ['an unknown condition', { condition: 'refurbished' }, 'condition', /new or used/],
    ['a blank title', { title: '' }, 'title', /Title is required/],
    ['a stock number with spaces', { stockNumber: 'EV 100' }, 'stockNumber', /letters, digits/],
    ['an image that is not on this site', { imageUrl: 'https://elsewhere.example/cart.jpg' }, 'imageUrl', /path on this site/],
  ]
  it.each(cases)('%s', (_name, cells, field, message) => {
    const problems = problemsOf(withRow(cells))
    expect(problems).toEqual([expect.objectContaining({ line: 2, field, message: expect.stringMatching(message) })])
  })

  it('a flag that is neither true nor false', () => {
    const problems = problemsOf(`${header},featured\n${good},maybe`)
    expect(problems).toEqual([{ line: 2, field: 'featured', message: expect.stringMatching(/true or false/) }])
  })

  it('a year, seats or battery outside the record\'s rules', () => {
    const problems = problemsOf(`${header},year,seats,battery\n${good},20x5,13,nuclear`)
    expect(problems.map((p) => p.field).sort()).toEqual(['battery', 'seats', 'year'])
  })

  it('a duplicate stock number, naming the first line', () => {
    const second = good.replace(vin, '')
    const problems = problemsOf(`${header}\n${good}\n${second}`)
    expect(problems).toEqual([{ line: 3, field: 'stockNumber', message: 'Stock number EV-100 is also on line 2' }])
  })

  it('a duplicate VIN', () => {
    const second = good.replace('EV-100', 'EV-101')
    expect(problemsOf(`${header}\n${good}\n${second}`)).toEqual([{ line: 3, field: 'vin', message: `VIN ${vin} is also on line 2` }])
  })

  it('a row with too few or too many cells', () => {
    expect(problemsOf(`${header}\n${good},extra`)).toEqual([expect.objectContaining({ line: 2, field: '(row)' })])
  })

  it('an unknown, repeated or missing column in the header', () => {
    expect(problemsOf(`${header},colour\n${good},red`)).toEqual([expect.objectContaining({ line: 1, field: 'colour' })])
    expect(problemsOf(`${header},vin\n${good},`)).toEqual([expect.objectContaining({ line: 1, field: 'vin' })])
    expect(problemsOf('stockNumber,title\nEV-1,A cart')).toEqual([
      expect.objectContaining({ line: 1, field: 'description' }),
      expect.objectContaining({ line: 1, field: 'price' }),
    ])
  })

  it('an empty file, or a header alone', () => {
    expect(problemsOf('')).toEqual([expect.objectContaining({ field: '(file)' })])
    expect(problemsOf(header)).toEqual([expect.objectContaining({ field: '(file)', message: expect.stringMatching(/no carts/) })])
  })

  it('a file that is not CSV (an unclosed quote)', () => {
    expect(problemsOf(`${header}\n"EV-1,oops`)).toEqual([expect.objectContaining({ field: '(file)' })])
  })

  it('lists every bad row, each with its own line, even when a cell spans lines', () => {
    const rows = [
      good,
      good.replace('EV-100', 'EV-101').replace(vin, '').replace('"Four seats, lead-acid."', '"Two lines\nof text"').replace('11995', 'free'),
      good.replace('EV-100', 'EV-102').replace(vin, '').replace('available', 'gone'),
    ]
    expect(problemsOf(`${header}\n${rows.join('\n')}`)).toEqual([
      expect.objectContaining({ line: 3, field: 'price' }),
      expect.objectContaining({ line: 5, field: 'status' }),
    ])
  })
})

describe('spreadsheet formulas', () => {
  it('are marked with an apostrophe on export and unmarked on import', () => {
    for (const text of ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)']) {
      expect(protectCell(text)).toBe(`'${text}`)
      expect(unprotectCell(protectCell(text))).toBe(text)
    }
    expect(protectCell("Bob's cart")).toBe("Bob's cart")
    expect(unprotectCell("'quoted")).toBe("'quoted")
  })
})

describe('the export', () => {
  it('writes every column, and reading it back gives the same records', () => {
    // A line break is kept in a description, quoted; a one-line field such as trim refuses one.
    const parsed = parseInventoryCsv(`${header},featured,serialNumber,trim\n${good.replace('lead-acid.', 'lead-acid.\nTwo rows.')},yes,=1+1,"GT, two"`)
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    const csv = inventoryCsv(parsed.rows.map((r) => ({ ...r.record, stockNumber: r.record.stockNumber! })))
    expect(csv.split('\r\n')[0]).toBe(inventoryColumns.join(','))
    expect(csv).toContain("'=1+1")
    const again = parseInventoryCsv(csv)
    expect(again.ok).toBe(true)
    if (again.ok) expect(again.rows.map((r) => r.record)).toEqual(parsed.rows.map((r) => r.record))
  })
})
