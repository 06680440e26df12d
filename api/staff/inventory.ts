import { inventoryCsv, parseInventoryCsv, type RowProblem } from '../carts/inventory-csv.ts'
import { applyImport, exportCarts, type ImportOutcome, type ImportPlan, planImport } from '../carts/inventory-import.ts'
import { exportedPhotoUrl, preparePhotos, type RowPhotos, stagePhotos, unstagePhotos, writePlanWithPhotos } from '../carts/import-photos.ts'
import { checkRowPhotos, type PhotoSourcePolicy } from '../carts/photo-sources.ts'
import type { FetchLimits } from '../carts/photo-fetch.ts'
import type { Sql } from '../db/database.ts'
import type { Actor } from './audit.ts'

/**
 * The inventory spreadsheet for the command line and the console (PRODUCT.md, "import and
 * export"): check a file (parse, the record's rules, photo sources, the database's stock numbers
 * and VINs, then every photo it adds read and checked by the photo processor) without writing
 * anything, then apply what was checked, photos included, in one transaction.
 */
export type CheckedImport =
  | {
      ok: true
      plan: ImportPlan
      /** Photo references in the file, and how many of them the carts do not have yet. */
      photosNamed: number
      photosToAdd: number
      /** The photos to add, row by row: processed when checked for an import, else header-checked. */
      photos: RowPhotos[]
    }
  | { ok: false; problems: RowProblem[] }

export type ImportOutcomeWithPhotos = ImportOutcome & { photosAdded: number }

/** What the command line receives: the photos' files stay on the server. */
export type ImportResult =
  | (CheckedImport & { ok: false })
  | { ok: true; plan: ImportPlan; photosNamed: number; photosToAdd: number; applied?: ImportOutcomeWithPhotos }

export interface InventoryOptions {
  photoPolicy: PhotoSourcePolicy
  /** Photo fetches' limits (tests shorten the time). */
  fetchLimits?: FetchLimits
}

export interface CheckOptions {
  filesAllowed: boolean
  /** The CSV file's folder, where photo file names are read (the command line). */
  folder?: string
  /** Process the photos to add (an import) rather than check their headers (a dry run, a preview). */
  processPhotos?: boolean
}

export function createInventory(sql: Sql, onWrite: () => void, options: InventoryOptions) {
  async function check(text: string, { filesAllowed, folder, processPhotos = false }: CheckOptions): Promise<CheckedImport> {
    const parsed = parseInventoryCsv(text)
    if (!parsed.ok) return parsed
    const sources = await checkRowPhotos(parsed.rows, options.photoPolicy, { filesAllowed })
    if (sources.problems.length > 0) return { ok: false, problems: sources.problems }
    const planned = await planImport(sql, parsed.rows)
    if (!planned.ok) return planned
    const photos = await preparePhotos(sql, parsed.rows, sources.sources, options.photoPolicy, {
      folder: filesAllowed ? folder : undefined,
      process: processPhotos,
      limits: options.fetchLimits,
    })
    if (!photos.ok) return photos
    return {
      ok: true,
      plan: planned.plan,
      photosNamed: parsed.rows.reduce((n, r) => n + r.photos.length, 0),
      photosToAdd: photos.count,
      photos: photos.rows,
    }
  }

  /** Writes a checked plan and its processed photos in one transaction. */
  async function apply(plan: ImportPlan, actor: Actor, photos: readonly RowPhotos[] = []): Promise<ImportOutcomeWithPhotos> {
    // The photos' files go to the database before the transaction, which copies them inside it.
    const importId = photos.length > 0 ? await stagePhotos(sql, photos) : undefined
    try {
      const outcome = await applyImport(sql, plan, actor, (tx, write) => writePlanWithPhotos(tx, plan, photos, actor, write, importId))
      if (outcome.added + outcome.updated + outcome.photosAdded > 0) onWrite()
      return outcome
    } finally {
      if (importId) await unstagePhotos(sql, importId)
    }
  }

  return {
    check,
    apply,
    /** Checks a file and, unless it is a dry run, applies it: all of it, or nothing. */
    async importCsv(text: string, actor: Actor, { dryRun = false, ...checking }: Omit<CheckOptions, 'processPhotos'> & { dryRun?: boolean }): Promise<ImportResult> {
      const checked = await check(text, { ...checking, processPhotos: !dryRun })
      if (!checked.ok) return checked
      const { photos, ...summary } = checked
      if (dryRun) return summary
      return { ...summary, applied: await apply(checked.plan, actor, photos) }
    },
    /** Every cart, sold and held ones too, in the import's columns; photos as this site's addresses. */
    async exportCsv() {
      const [carts, photos] = await Promise.all([
        exportCarts(sql),
        sql<{ stockNumber: string; key: string; widths: number[] }[]>`
          select c.stock_number, p.key, p.widths from cart_photos p join golf_carts c on c.id = p.cart_id
          order by p.cart_id, p.position, p.id
        `,
      ])
      const byStock = new Map<string, string[]>()
      for (const photo of photos) {
        const urls = byStock.get(photo.stockNumber) ?? []
        urls.push(exportedPhotoUrl(options.photoPolicy.siteUrl, photo))
        byStock.set(photo.stockNumber, urls)
      }
      return inventoryCsv(carts.map((cart) => ({ ...cart, photos: byStock.get(cart.stockNumber) ?? [] })))
    },
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
