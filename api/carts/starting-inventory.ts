import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describeProblems, type ImportRow, parseInventoryCsv } from './inventory-csv.ts'

/**
 * The starting inventory (PRODUCT.md, "The catalogue"): `domain/starting-inventory.csv`, in the
 * inventory spreadsheet's columns, the one list of the carts a new site opens with. The seed
 * imports it through the same path as `npm run inventory -- import`; the artwork generator draws
 * each row's picture from its title and colour.
 */
const fileUrl = new URL('../../domain/starting-inventory.csv', import.meta.url)
/** Component tests run in a browser-like environment whose module URLs are not files: from the project root then. */
export const startingInventoryFile = fileUrl.protocol === 'file:' ? fileURLToPath(fileUrl) : resolve('domain/starting-inventory.csv')

let rows: ImportRow[] | undefined

/** Every row of the file, checked as an import checks it; a bad file is a bug, and says where. */
export function startingInventory(): readonly ImportRow[] {
  if (rows) return rows
  const parsed = parseInventoryCsv(readFileSync(startingInventoryFile, 'utf8'))
  if (!parsed.ok) throw new Error(`domain/starting-inventory.csv is not a valid inventory file:\n${describeProblems(parsed.problems)}`)
  rows = parsed.rows
  return rows
}
