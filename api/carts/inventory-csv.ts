import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { defaultShowroom } from '../../domain/business.ts'
import { type CartRecord, type CartRecordField, cartRecordFields, cartRecordInput } from '../../domain/cart-record.ts'
import { slugify } from '../../domain/slug.ts'

/**
 * The inventory spreadsheet (PRODUCT.md, "import and export"): a header row naming the cart
 * record's fields in camelCase, one cart a row. The import and the export read and write the same
 * columns, so an export imported again changes nothing. Pure rules: no database, no network.
 */
export const inventoryColumns = [
  'stockNumber',
  'title',
  'description',
  'price',
  'msrp',
  'condition',
  'status',
  'location',
  'featured',
  'year',
  'make',
  'model',
  'trim',
  'vin',
  'serialNumber',
  'color',
  'seats',
  'battery',
  'streetLegal',
  'lifted',
  'imageUrl',
  'photos',
] as const satisfies readonly (CartRecordField | 'photos')[]

export type InventoryColumn = (typeof inventoryColumns)[number]

/** The columns a file must have: a cart cannot be added or told apart without them. */
export const requiredColumns = ['title', 'description', 'price'] as const satisfies readonly InventoryColumn[]

/** A file's size limit: 10,000 carts with long descriptions fit with room to spare. */
export const maxImportBytes = 50 * 1024 * 1024
export const maxImportRows = 20_000

/** One refused cell (or row, or file): where, which column, why. `line` 1 is the header. */
export interface RowProblem {
  line: number
  field: string
  message: string
}

/** A row that passed: its line, the record, which columns it gave, and its photo references. */
export interface ImportRow {
  line: number
  /** The whole record, with empty columns as the schema's empty values. */
  record: CartRecord
  /** The columns the file has: on an existing cart, a column the file leaves out keeps its value. */
  given: readonly CartRecordField[]
  /** Photos named in the row, in order: URLs or file names. Empty when the column is absent or blank. */
  photos: string[]
}

export type ParsedInventory =
  | { ok: true; rows: ImportRow[]; columns: readonly InventoryColumn[] }
  | { ok: false; problems: RowProblem[] }

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection), so the
 * export puts an apostrophe before it, and the import takes that apostrophe off again.
 */
const formulaStart = /^[=+\-@\t\r]/

export function protectCell(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text
}

export function unprotectCell(text: string): string {
  return text.startsWith("'") && formulaStart.test(text.slice(1)) ? text.slice(1) : text
}

const numberColumns = new Set<string>(['price', 'msrp', 'year', 'seats'])
const flagColumns = new Set<string>(['featured', 'streetLegal', 'lifted'])
const recordColumns = new Set<string>(Object.keys(cartRecordFields))

/** Prices as people type them: "12995", "12,995.00", "$12,995". `NaN` when not a number. */
function numberCell(text: string): number | null {
  const value = text.replace(/[$,\s]/g, '')
  if (value === '') return null
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN
}

const yes = new Set(['true', 'yes', 'y', '1'])
const no = new Set(['false', 'no', 'n', '0', ''])

/** A flag as a spreadsheet writes it; anything else is a message. */
function flagCell(text: string): boolean | string {
  const value = text.trim().toLowerCase()
  if (yes.has(value)) return true
  if (no.has(value)) return false
  return 'must be true or false (or yes / no, 1 / 0)'
}

const labels: Readonly<Record<string, string>> = {
  featured: 'Featured',
  streetLegal: 'Street legal',
  lifted: 'Lifted',
}

/** The header's columns, or the problems with it (unknown, repeated or missing columns). */
function readHeader(header: readonly string[]): { columns: InventoryColumn[] } | { problems: RowProblem[] } {
  const problems: RowProblem[] = []
  const seen = new Set<string>()
  const columns = header.map((raw) => raw.trim().replace(/^\uFEFF/, ''))
  for (const name of columns) {
    if (!(inventoryColumns as readonly string[]).includes(name)) {
      problems.push({ line: 1, field: name || '(blank)', message: `Unknown column "${name}": the columns are ${inventoryColumns.join(', ')}` })
    } else if (seen.has(name)) {
      problems.push({ line: 1, field: name, message: `The column "${name}" appears twice` })
    }
    seen.add(name)
  }
  for (const name of requiredColumns) {
    if (!seen.has(name)) problems.push({ line: 1, field: name, message: `The file has no "${name}" column` })
  }
  return problems.length > 0 ? { problems } : { columns: columns as InventoryColumn[] }
}

/**
 * Reads a whole file and checks every row against the cart record's rules and against the other
 * rows (a stock number or VIN twice). Every problem is listed, not just the first; rules that
 * need the database (a VIN already on another cart) and photo hosts are checked by the caller.
 */
export function parseInventoryCsv(text: string): ParsedInventory {
  let records: { record: string[]; info: { lines: number } }[]
  try {
    // eslint-disable-next-line no-restricted-syntax -- csv-parse's types do not model `info: true`, which wraps each record as { record, info }
    records = parse(text, { info: true, bom: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof records
  } catch (error) {
    const { lines } = error as { lines?: number }
    return { ok: false, problems: [{ line: lines ?? 1, field: '(file)', message: `This is not a readable CSV file: ${(error as Error).message}` }] }
  }
  const [headerRow, ...body] = records
  if (!headerRow) return { ok: false, problems: [{ line: 1, field: '(file)', message: 'The file is empty: it needs a header row and one row per cart' }] }
  if (body.length > maxImportRows) {
    return { ok: false, problems: [{ line: 1, field: '(file)', message: `The file has ${body.length} carts; at most ${maxImportRows} can be imported at once` }] }
  }
  const header = readHeader(headerRow.record)
  if ('problems' in header) return { ok: false, problems: header.problems }
  const { columns } = header
  const given = columns.filter((c): c is CartRecordField => recordColumns.has(c))

  const problems: RowProblem[] = []
  const rows: ImportRow[] = []
  const stockLines = new Map<string, number>()
  const vinLines = new Map<string, number>()
  for (const { record: cells, info } of body) {
    const line = info.lines - cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0)
    if (cells.length !== columns.length) {
      problems.push({ line, field: '(row)', message: `The row has ${cells.length} cells; the header has ${columns.length} columns` })
      continue
    }
    const input: Record<string, unknown> = {}
    const rowProblems: RowProblem[] = []
    let photos: string[] = []
    columns.forEach((column, i) => {
      const cell = unprotectCell(cells[i] ?? '')
      if (column === 'photos') {
        photos = cell.split('|').map((p) => p.trim()).filter(Boolean)
      } else if (numberColumns.has(column)) {
        input[column] = numberCell(cell)
      } else if (flagColumns.has(column)) {
        const flag = flagCell(cell)
        if (typeof flag === 'string') rowProblems.push({ line, field: column, message: `${labels[column]} ${flag}` })
        else input[column] = flag
      } else if (column === 'location') {
        // A showroom's key, or its name as people write it ("Ocean View" is ocean-view).
        input[column] = slugify(cell) || null
      } else {
        input[column] = column === 'title' || column === 'description' || column === 'imageUrl' ? cell : cell.trim() || null
      }
    })
    // Columns the file leaves out: required ones were refused above; the rest are empty here and
    // keep an existing cart's values (see `given`). A new cart without a location column stands
    // at the first showroom.
    const parsed = cartRecordInput.safeParse({ condition: 'new', status: 'available', location: defaultShowroom.id, ...input })
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        rowProblems.push({ line, field: issue.path.join('.') || '(row)', message: issue.message })
      }
    }
    if (parsed.success) {
      const { stockNumber, vin } = parsed.data
      if (stockNumber) {
        const first = stockLines.get(stockNumber)
        if (first !== undefined) rowProblems.push({ line, field: 'stockNumber', message: `Stock number ${stockNumber} is also on line ${first}` })
        else stockLines.set(stockNumber, line)
      }
      if (vin) {
        const first = vinLines.get(vin)
        if (first !== undefined) rowProblems.push({ line, field: 'vin', message: `VIN ${vin} is also on line ${first}` })
        else vinLines.set(vin, line)
      }
    }
    if (rowProblems.length > 0 || !parsed.success) {
      problems.push(...rowProblems)
      continue
    }
    rows.push({ line, record: parsed.data, given, photos })
  }
  if (body.length === 0) problems.push({ line: 2, field: '(file)', message: 'The file has a header row but no carts' })
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows, columns }
}

/** A cart as the export writes it: the record, and its photos' addresses. */
export type ExportCart = CartRecord & { stockNumber: string; photos?: readonly string[] }

function cellOf(cart: ExportCart, column: InventoryColumn): string {
  if (column === 'photos') return (cart.photos ?? []).join('|')
  const value = cart[column]
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  return protectCell(String(value))
}

/** The spreadsheet of these carts, header first, every column; what the import reads back unchanged. */
export function inventoryCsv(carts: Iterable<ExportCart>, columns: readonly InventoryColumn[] = inventoryColumns): string {
  const rows: string[][] = [[...columns]]
  for (const cart of carts) rows.push(columns.map((column) => cellOf(cart, column)))
  return stringify(rows, { record_delimiter: 'windows' })
}

/** Problems as a person reads them: one line each, in file order. */
export function describeProblems(problems: readonly RowProblem[]): string {
  return problemLines(problems).join('\n')
}

/** One line per problem, by line number: the command prints each through the terminal-safe writer. */
export function problemLines(problems: readonly RowProblem[]): string[] {
  return [...problems].sort((a, b) => a.line - b.line).map((p) => `line ${p.line}, ${p.field}: ${p.message}`)
}
