import { inventoryCsv, parseInventoryCsv, type RowProblem } from '../carts/inventory-csv.ts'
import { applyImport, exportCarts, type ImportOutcome, type ImportPlan, planImport } from '../carts/inventory-import.ts'
import { checkRowPhotos, type PhotoSourcePolicy } from '../carts/photo-sources.ts'
import type { Sql } from '../db/database.ts'
import type { Actor } from './audit.ts'

/**
 * The inventory spreadsheet for the command line and the console (PRODUCT.md, "import and
 * export"): check a file (parse, the record's rules, photo sources, the database's stock numbers
 * and VINs) without writing anything, then apply what was checked in one transaction.
 */
export type CheckedImport =
  | { ok: true; plan: ImportPlan; photosNamed: number }
  | { ok: false; problems: RowProblem[] }

export type ImportResult = (CheckedImport & { ok: false }) | { ok: true; plan: ImportPlan; photosNamed: number; applied?: ImportOutcome }

export interface InventoryOptions {
  photoPolicy: PhotoSourcePolicy
}

export function createInventory(sql: Sql, onWrite: () => void, options: InventoryOptions) {
  async function check(text: string, { filesAllowed }: { filesAllowed: boolean }): Promise<CheckedImport> {
    const parsed = parseInventoryCsv(text)
    if (!parsed.ok) return parsed
    const photoProblems = await checkRowPhotos(parsed.rows, options.photoPolicy, { filesAllowed })
    if (photoProblems.length > 0) return { ok: false, problems: photoProblems }
    const planned = await planImport(sql, parsed.rows)
    if (!planned.ok) return planned
    return { ok: true, plan: planned.plan, photosNamed: parsed.rows.reduce((n, r) => n + r.photos.length, 0) }
  }

  async function apply(plan: ImportPlan, actor: Actor): Promise<ImportOutcome> {
    const outcome = await applyImport(sql, plan, actor)
    if (outcome.added + outcome.updated > 0) onWrite()
    return outcome
  }

  return {
    check,
    apply,
    /** Checks a file and, unless it is a dry run, applies it: all of it, or nothing. */
    async importCsv(text: string, actor: Actor, { dryRun = false, filesAllowed }: { dryRun?: boolean; filesAllowed: boolean }): Promise<ImportResult> {
      const checked = await check(text, { filesAllowed })
      if (!checked.ok || dryRun) return checked
      return { ...checked, applied: await apply(checked.plan, actor) }
    },
    /** Every cart, sold and held ones too, in the import's columns. */
    exportCsv: async () => inventoryCsv(await exportCarts(sql)),
  }
}

export type Inventory = ReturnType<typeof createInventory>

/** A plan as a person reads it: one line per added or changed cart. */
export function describePlan(plan: ImportPlan, limit = Number.POSITIVE_INFINITY): string[] {
  const show = (value: unknown) => (value === null || value === undefined || value === '' ? '(empty)' : JSON.stringify(value))
  const lines = [
    ...plan.adds.map((a) => `line ${a.line}: add ${a.record.stockNumber ?? '(new stock number)'} "${a.record.title}"`),
    ...plan.updates.map(
      (u) =>
        `line ${u.line}: change ${u.stockNumber} "${u.title}": ${u.changes.map((c) => `${c.field} ${show(c.before)} → ${show(c.after)}`).join(', ')}`,
    ),
  ]
  return lines.length > limit ? [...lines.slice(0, limit), `... and ${lines.length - limit} more`] : lines
}
