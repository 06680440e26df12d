/**
 * `npm run inventory -- import FILE.csv [--dry-run]` and `npm run inventory -- export`: the
 * inventory as a spreadsheet (PRODUCT.md, "import and export"). PostgreSQL (DATABASE_URL) is used
 * directly; with the embedded database the command asks the running server, or opens the data
 * folder when none is running. A file with any bad row changes nothing; every bad row is listed.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadEnv } from '../api/config/env.ts'
import { openMigratedDatabase } from '../api/db/migrate.ts'
import { type RunningServerAccess, runningServerAccess } from '../api/server.ts'
import { inventoryTool } from '../api/staff/audit.ts'
import { createInventory, describePlan, type ImportResult } from '../api/staff/inventory.ts'
import { maxImportBytes, parseInventoryCsv, problemLines, type RowProblem } from '../api/carts/inventory-csv.ts'
import { terminalLines, writeData } from '../api/terminal.ts'

const usage = `The inventory as a spreadsheet (CSV):

  npm run inventory -- import FILE.csv [--dry-run]   add and update carts from a file
  npm run inventory -- export > inventory.csv        every cart, in the same columns

Rows match carts by stockNumber, else they are added. A file with any bad row changes nothing,
and every bad row is listed with its line and column. --dry-run lists the changes and makes none.
Photos (the photos column, |-separated) are file names beside the CSV file, this site's photo
addresses, or addresses on the hosts in IMPORT_PHOTO_HOSTS; they are added after a cart's own.`

class UsageError extends Error {}

/** The server holding the embedded database, or the database itself. */
interface Target {
  importCsv(text: string, dryRun: boolean, folder: string): Promise<ImportResult>
  exportCsv(): Promise<string>
  close(): Promise<void>
}

/** Where the command reads its settings, and writes what it has to say and the export. */
export interface InventoryIO {
  env: NodeJS.ProcessEnv
  /** A terminal (`isTTY`) is shown an export's line breaks; a file or a pipe gets it as it is. */
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream
}

/**
 * The whole command, `args` being what follows `npm run inventory --`: it answers the exit code.
 * The file run as a script calls it with the process's own streams; the tests call it in-process
 * (api/staff/inventory-command.test.ts), and spawn the script once per path.
 */
export async function runInventory(args: readonly string[], io: InventoryIO): Promise<number> {
  const say = (...lines: string[]) => void io.stdout.write(terminalLines(lines))
  const complain = (...lines: string[]) => void io.stderr.write(terminalLines(lines))
  const dryRun = args.includes('--dry-run')
  const [command, file, ...extra] = args.filter((a) => a !== '--dry-run')
  try {
    if (!command || command === 'help' || command === '--help') {
      say(...usage.split('\n'))
      return command ? 0 : 1
    }
    if (command === 'export' && !file && !dryRun) {
      const target = await openTarget(io.env)
      try {
        writeData(await target.exportCsv(), io.stdout)
      } finally {
        await target.close()
      }
      return 0
    }
    if (command === 'import' && file && extra.length === 0) return await importInventory(file, dryRun, io.env, { say, complain })
    throw new UsageError(`${command === 'import' ? 'Name one file: npm run inventory -- import FILE.csv' : `Unknown command "${args.join(' ')}".`}\n\n${usage}`)
  } catch (error) {
    if (error instanceof UsageError) complain(...error.message.split('\n'))
    else complain(`Failed: ${(error as Error).message}`)
    return 1
  }
}

// The exit code is set, not exited with: an export written to a pipe is flushed first.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await runInventory(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr })
}

type Writers = Record<'say' | 'complain', (...lines: string[]) => void>

async function importInventory(path: string, dryRun: boolean, env: NodeJS.ProcessEnv, out: Writers): Promise<number> {
  const full = resolve(path)
  if (!existsSync(full)) throw new UsageError(`There is no file ${full}`)
  const bytes = readFileSync(full)
  if (bytes.length > maxImportBytes) throw new UsageError(`${full} is larger than ${maxImportBytes / 1024 / 1024} MB`)
  const text = bytes.toString('utf8')
  // Photos named by file are looked for beside the CSV file before anything is sent.
  const missing = missingPhotoFiles(text, dirname(full))
  if (missing.length > 0) return report({ ok: false, problems: missing }, out)
  const target = await openTarget(env)
  try {
    return report(await target.importCsv(text, dryRun, dirname(full)), out)
  } finally {
    await target.close()
  }
}

function missingPhotoFiles(text: string, folder: string): RowProblem[] {
  const parsed = parseInventoryCsv(text)
  if (!parsed.ok) return []
  return parsed.rows.flatMap((row) =>
    row.photos
      .filter((p) => !/^[a-z][a-z0-9+.-]*:/i.test(p) && !p.includes('..') && !existsSync(join(folder, p)))
      .map((p) => ({ line: row.line, field: 'photos', message: `There is no file ${p} beside the CSV file` })),
  )
}

function report(result: ImportResult, { say, complain }: Writers): number {
  if (!result.ok) {
    complain(`Nothing was imported: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} to fix first.`, '', ...problemLines(result.problems))
    return 1
  }
  const { plan } = result
  say(...describePlan(plan, 200))
  const counts = `${plan.adds.length} to add, ${plan.updates.length} to change, ${plan.unchanged} unchanged`
  if (result.photosNamed > 0) {
    const photos = result.applied ? `${result.applied.photosAdded} added` : `${result.photosToAdd} to add`
    say(`Photos: ${result.photosNamed} named, ${photos}; the others are already on their carts.`)
  }
  say(
    result.applied
      ? `Imported: ${result.applied.added} added, ${result.applied.updated} changed, ${result.applied.unchanged} unchanged (written in one transaction of ${result.applied.writeMs} ms).`
      : `Dry run, nothing changed: ${counts}.`,
  )
  return 0
}

async function openTarget(source: NodeJS.ProcessEnv): Promise<Target> {
  const env = loadEnv(source)
  const access = runningServerAccess(env)
  const remote = access && (await runningServer(access))
  if (remote) return remote
  const db = await openMigratedDatabase(env)
  const inventory = createInventory(db.sql, () => {}, { photoPolicy: { siteUrl: env.siteUrl, allowedHosts: env.importPhotoHosts } })
  return {
    importCsv: (text, dry, folder) => inventory.importCsv(text, inventoryTool, { dryRun: dry, filesAllowed: true, folder }),
    exportCsv: () => inventory.exportCsv(),
    close: () => db.close(),
  }
}

/** The server that holds the embedded database, through its loopback-only endpoint. */
async function runningServer({ url, token }: RunningServerAccess): Promise<Target | undefined> {
  const headers = { authorization: `Bearer ${token}` }
  const answer = async (res: Response) => {
    if (res.ok) return res
    const body = (await res.json().catch(() => ({}))) as { message?: string }
    throw new Error(body.message ?? `The server answered ${res.status}`)
  }
  try {
    await fetch(`${url}/healthz`)
  } catch {
    return undefined // The server that wrote the file is gone; the folder is opened instead.
  }
  return {
    importCsv: async (text, dry, folder) => {
      const query = new URLSearchParams({ folder, ...(dry ? { dryRun: '1' } : {}) })
      const res = await fetch(`${url}/internal/inventory/import?${query}`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: text })
      return (await (await answer(res)).json()) as ImportResult
    },
    exportCsv: async () => (await answer(await fetch(`${url}/internal/inventory/export`, { headers }))).text(),
    close: async () => {},
  }
}
