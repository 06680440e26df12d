import { type RefObject, useEffect, useRef, useState } from 'react'
import { hydrateRoot } from 'react-dom/client'
import type { RowProblem } from '../../api/carts/inventory-csv.ts'
import type { PlannedAdd, PlannedUpdate } from '../../api/carts/inventory-import.ts'
import { conditionLabels } from '../../domain/cart-values.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { LiveStatus } from './form-kit.tsx'
import { staffPage } from './page.ts'
import { StaffTable } from './staff-table.tsx'
import { useFileDrop } from './file-drop.ts'

/**
 * `/staff/inventory/import` (issue #17, PRODUCT.md "Import"): the inventory spreadsheet in the
 * console. Choose or drop a CSV file; it is checked at once (`POST /api/staff/inventory/check`)
 * and every change it would make is shown (each added cart, each changed field old → new, the
 * count left unchanged) or every problem (line, column, reason), with nothing written. Confirm
 * posts the same file with the preview's fingerprint (`POST /api/staff/inventory/import`), so
 * what is written is exactly what was shown. The file stays chosen whatever goes wrong, so a
 * dropped connection or a refused confirm (409, someone changed the inventory meanwhile) is one
 * button away from trying again. The export is a plain download link.
 *
 * The server renders the page (the export works without any script); the console's script
 * brings the import to life (`mountInventoryImport`, host/staff/entry-client.tsx), as it does the
 * cart form's photos (decision 0016: the script does what HTML cannot; a file posted as the body
 * with a preview step is that).
 */
type PreviewChange = Pick<PlannedUpdate, 'line' | 'id' | 'stockNumber' | 'title' | 'changes'>

interface Preview {
  adds: PlannedAdd[]
  updates: PreviewChange[]
  unchanged: number
  photosToAdd?: number
  fingerprint: string
}

interface Imported {
  added: number
  updated: number
  unchanged: number
  photosAdded?: number
}

type Shown =
  | { kind: 'none' }
  | { kind: 'preview'; preview: Preview }
  | { kind: 'problems'; problems: RowProblem[]; whenImporting: boolean }
  | { kind: 'imported'; outcome: Imported; name: string }

/** A refusal or failure: the message, and what the person can do next. */
interface Failure {
  message: string
  /** The file is still chosen: checking it again is the way on. */
  checkAgain: boolean
  signIn?: boolean
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** A value as the spreadsheet shows it; empty cells say so. */
function cell(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)'
  if ((field === 'price' || field === 'msrp') && typeof value === 'number') return formatPrice(value)
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value)
}

/** What the check and import endpoints answer (api/staff/inventory-uploads.ts). */
type Answer =
  | ({ ok: true } & Preview)
  | ({ ok: true } & Imported)
  | { ok: false; problems: RowProblem[]; message?: string }
  | { ok?: undefined; message?: string }

async function readJson(res: Response): Promise<Answer | undefined> {
  try {
    return (await res.json()) as Answer
  } catch {
    return undefined
  }
}

/** A refusal in the one error shape, as the person should read it. */
function failureOf(status: number, body: Answer | undefined, importing: boolean): Failure {
  const said = body && 'message' in body && typeof body.message === 'string' ? body.message : undefined
  if (status === 401) return { message: 'Your session has ended. Sign in again, then check the file again: it is still chosen.', checkAgain: true, signIn: true }
  if (status === 409) {
    return {
      message: `${said ?? 'The inventory changed since the preview.'} Nothing was imported. Check the file again to see what it would change now.`,
      checkAgain: true,
    }
  }
  if (status === 413) return { message: `${said ?? 'The file is too large.'} Split it into smaller files and import them one at a time.`, checkAgain: false }
  if (status >= 500) {
    return {
      message: `${said ?? 'Something went wrong on our side.'} ${importing ? 'Nothing was imported.' : ''} The file is still chosen: try again in a minute.`.replace(/\s+/g, ' '),
      checkAgain: true,
    }
  }
  return { message: said ?? `The server answered ${status}.`, checkAgain: true }
}

export function InventoryImport() {
  const [file, setFile] = useState<File | undefined>(undefined)
  const [busy, setBusy] = useState<'checking' | 'importing' | undefined>(undefined)
  const [shown, setShown] = useState<Shown>({ kind: 'none' })
  const [failure, setFailure] = useState<Failure | undefined>(undefined)
  const results = useRef<HTMLHeadingElement>(null)
  // A new result (problems, preview, done) is read next: focus moves to its heading.
  useEffect(() => {
    if (shown.kind !== 'none') results.current?.focus()
  }, [shown])

  async function check(chosen: File) {
    setBusy('checking')
    setFailure(undefined)
    setShown({ kind: 'none' })
    try {
      const res = await fetch(staffPaths.inventoryCheckApi, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'text/csv' },
        body: chosen,
      })
      const body = await readJson(res)
      if (!res.ok || !body) return setFailure(failureOf(res.status, body, false))
      if (body.ok === false) setShown({ kind: 'problems', problems: body.problems, whenImporting: false })
      else if ('fingerprint' in body) setShown({ kind: 'preview', preview: body })
      else return setFailure(failureOf(res.status, body, false))
    } catch {
      setFailure({
        message: 'The connection dropped before the server answered. Nothing was changed, and the file is still chosen: check it again when you are back online.',
        checkAgain: true,
      })
    } finally {
      setBusy(undefined)
    }
  }

  async function confirm(preview: Preview) {
    if (!file) return
    setBusy('importing')
    setFailure(undefined)
    try {
      const res = await fetch(`${staffPaths.inventoryImportApi}?fingerprint=${encodeURIComponent(preview.fingerprint)}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'text/csv' },
        body: file,
      })
      const body = await readJson(res)
      if (res.status === 400 && body?.ok === false) {
        setShown({ kind: 'problems', problems: body.problems, whenImporting: true })
        } else if (!res.ok || !body || !('added' in body)) {
        setFailure(failureOf(res.status, body, true))
        if (res.status === 409) setShown({ kind: 'none' })
      } else {
        setShown({ kind: 'imported', outcome: body, name: file.name })
        setFile(undefined)
        }
    } catch {
      setFailure({
        message:
          'The connection dropped before the server answered, so we cannot tell whether the import was written. The file is still chosen: check it again, and the preview will show what is left to change (nothing, if it was imported).',
        checkAgain: true,
      })
    } finally {
      setBusy(undefined)
    }
  }

  function choose(chosen: File | undefined) {
    if (!chosen) return
    setFile(chosen)
    void check(chosen)
  }

  const { dropping, handlers: dropHandlers } = useFileDrop((files) => choose(files[0]))

  const status =
    busy === 'checking'
      ? `Checking ${file?.name ?? 'the file'}…`
      : busy === 'importing'
        ? `Importing ${file?.name ?? 'the file'}…`
        : ''

  return (
    <div className="staff-import" aria-busy={busy ? true : undefined}>
      <div
        className={`staff-import__drop${dropping ? ' staff-import__drop--dropping' : ''}`}
        {...dropHandlers}
      >
        <p className="staff-import__intro">Drag a CSV file here, or:</p>
        <div className="staff-import__pick-row">
          <label className="staff-button staff-import__pick">
            Choose a CSV file
            <input
              type="file"
              accept=".csv,text/csv"
              className="staff-import__file"
              disabled={busy !== undefined}
              aria-describedby="import-chosen"
              onChange={(event) => {
                choose(event.currentTarget.files?.[0])
                event.currentTarget.value = ''
              }}
            />
          </label>
          {file && failure?.checkAgain && (
            <button type="button" className="staff-link-button" disabled={busy !== undefined} onClick={() => void check(file)}>
              Check the file again
            </button>
          )}
        </div>
        <p className="staff-import__chosen" id="import-chosen">
          {file ? (
            <>
              Chosen: <strong>{file.name}</strong> ({fileSize(file.size)})
            </>
          ) : (
            'No file chosen.'
          )}
        </p>
      </div>
      <LiveStatus
        className="staff-import__status"
        status={status}
        problem={
          failure && (
            <>
              <p>{failure.message}</p>
              {failure.signIn && (
                <p>
                  <a href={staffPaths.login} target="_blank" rel="noopener">
                    Sign in (opens a new tab)
                  </a>
                </p>
              )}
            </>
          )
        }
      />

      {shown.kind === 'problems' && (
        <ProblemList problems={shown.problems} name={file?.name ?? 'the file'} whenImporting={shown.whenImporting} heading={results} />
      )}
      {shown.kind === 'preview' && (
        <PreviewOfChanges
          preview={shown.preview}
          name={file?.name ?? 'the file'}
          heading={results}
          busy={busy !== undefined}
          onConfirm={() => void confirm(shown.preview)}
          onCancel={() => {
            setShown({ kind: 'none' })
            setFile(undefined)
          }}
        />
      )}
      {shown.kind === 'imported' && <ImportDone outcome={shown.outcome} name={shown.name} heading={results} />}
    </div>
  )
}

type HeadingRef = RefObject<HTMLHeadingElement | null>

function ProblemList({ problems, name, whenImporting, heading }: { problems: RowProblem[]; name: string; whenImporting: boolean; heading: HeadingRef }) {
  const sorted = [...problems].sort((a, b) => a.line - b.line)
  return (
    <section className="staff-import__result" aria-labelledby="import-result">
      <h2 id="import-result" ref={heading} tabIndex={-1}>
        {plural(problems.length, 'problem')} in {name}: nothing was changed
      </h2>
      <p>
        {whenImporting ? 'The inventory changed since the preview, and the file no longer fits it. ' : ''}A file is imported
        whole or not at all. Correct these rows in the spreadsheet (line 1 is the header row), save it as CSV and choose it again.
      </p>
      <StaffTable
        className="staff-table staff-import__table"
        caption={`Every problem in ${name}, by line`}
        columns={['Line', 'Column', 'Problem']}
      >
        {sorted.map((problem, i) => (
          <tr key={`${problem.line}-${problem.field}-${i}`}>
            <th scope="row" data-label="Line">
              {problem.line}
            </th>
            <td data-label="Column">
              <code>{problem.field}</code>
            </td>
            <td data-label="Problem" className="staff-import__wide">
              {problem.message}
            </td>
          </tr>
        ))}
      </StaffTable>
    </section>
  )
}

function PreviewOfChanges(props: { preview: Preview; name: string; heading: HeadingRef; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { adds, updates, unchanged, photosToAdd = 0 } = props.preview
  const nothing = adds.length === 0 && updates.length === 0 && photosToAdd === 0
  return (
    <section className="staff-import__result" aria-labelledby="import-result">
      <h2 id="import-result" ref={props.heading} tabIndex={-1}>
        Preview of {props.name}
      </h2>
      <p className="staff-import__summary">
        {nothing
          ? `Nothing to change: all ${plural(unchanged, 'cart')} in the file match the inventory.`
          : `The file adds ${plural(adds.length, 'cart')}, changes ${plural(updates.length, 'cart')} and leaves ${plural(unchanged, 'cart')} as they are${
              photosToAdd > 0 ? `, with ${plural(photosToAdd, 'photo')} to add` : ''
            }. Nothing is written until you confirm.`}
      </p>

      {adds.length > 0 && (
        <>
          <h3 className="staff-import__subhead">Carts to add ({adds.length.toLocaleString('en-US')})</h3>
          <StaffTable
            className="staff-table staff-import__table"
            caption="Carts the file adds, by line"
            columns={['Line', 'Cart', 'Stock number', 'Price', 'Status']}
          >
            {adds.map(({ line, record }) => (
              <tr key={line}>
                <td data-label="Line">{line}</td>
                <th scope="row" className="staff-table__cart">
                  {record.title}
                  <span className="staff-muted">
                    {conditionLabels[record.condition]}
                    {record.vin ? ` · VIN ${record.vin}` : ''}
                  </span>
                </th>
                <td data-label="Stock number">{record.stockNumber ?? 'given when added'}</td>
                <td data-label="Price">{formatPrice(record.price)}</td>
                <td data-label="Status">{record.status}</td>
              </tr>
            ))}
          </StaffTable>
        </>
      )}

      {updates.length > 0 && (
        <>
          <h3 className="staff-import__subhead">Carts to change ({updates.length.toLocaleString('en-US')})</h3>
          <StaffTable
            className="staff-table staff-import__table"
            caption="Carts the file changes, each changed column from its value now to the file's"
            columns={['Line', 'Cart', 'Changes: now → in the file']}
          >
            {updates.map((update) => (
              <tr key={update.line}>
                <td data-label="Line">{update.line}</td>
                <th scope="row" className="staff-table__cart">
                  <a href={staffPaths.cart(update.id)}>{update.title}</a>
                  <span className="staff-muted">{update.stockNumber}</span>
                </th>
                <td data-label="Changes" className="staff-import__wide">
                  <ul className="staff-import__changes">
                    {update.changes.map((change) => (
                      <li key={change.field}>
                        <code>{change.field}</code>: <del>{cell(change.field ?? '', change.before)}</del>{' '}
                        <span aria-hidden="true">→</span>
                        <span className="gc-sr-only"> becomes</span> <ins>{cell(change.field ?? '', change.after)}</ins>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </StaffTable>
        </>
      )}

      <div className="staff-import__actions">
        {!nothing && (
          <button type="button" className="staff-button" disabled={props.busy} onClick={props.onConfirm}>
            Confirm the import
          </button>
        )}
        <button type="button" className="staff-link-button" disabled={props.busy} onClick={props.onCancel}>
          {nothing ? 'Done' : 'Cancel'}
        </button>
      </div>
    </section>
  )
}

function ImportDone({ outcome, name, heading }: { outcome: Imported; name: string; heading: HeadingRef }) {
  return (
    <section className="staff-import__result" aria-labelledby="import-result">
      <h2 id="import-result" ref={heading} tabIndex={-1}>
        {name} is imported
      </h2>
      <p className="staff-alert staff-alert--done">
        {plural(outcome.added, 'cart')} added, {plural(outcome.updated, 'cart')} changed, {plural(outcome.unchanged, 'cart')}{' '}
        unchanged{outcome.photosAdded ? `, ${plural(outcome.photosAdded, 'photo')} added` : ''}. Visitors see the changes now.
      </p>
      <p>
        <a href={staffPaths.console}>See the inventory</a> or choose another file.
      </p>
    </section>
  )
}

function ImportPage() {
  return (
    <>
      <div className="staff-heading">
        <h1>Import and export</h1>
      </div>
      <section className="staff-import__section" aria-labelledby="export-heading">
        <h2 id="export-heading">Export</h2>
        <p>
          Every cart, sold and held ones too, in the columns the import reads: edit it in a spreadsheet, save it as CSV and import
          it back below.
        </p>
        <p>
          <a className="staff-link-button" href={staffPaths.inventoryExport} download>
            Download the inventory (CSV)
          </a>
        </p>
      </section>
      <section className="staff-import__section" aria-labelledby="import-heading">
        <h2 id="import-heading">Import</h2>
        <ul className="staff-import__rules">
          <li>
            A row whose <code>stockNumber</code> the inventory has changes that cart; any other row adds a cart (it needs an{' '}
            <code>imageUrl</code>). Columns the file leaves out keep their values.
          </li>
          <li>You see every change before anything is written, and nothing is written until you confirm.</li>
          <li>A file with any bad row changes nothing: each problem is listed with its line and column.</li>
        </ul>
        <noscript>
          <p className="staff-alert staff-alert--error">
            Importing here needs JavaScript. Without it, import on the server with <code>npm run inventory -- import FILE.csv</code>.
          </p>
        </noscript>
        <div data-inventory-import="">
          <InventoryImport />
        </div>
      </section>
    </>
  )
}

export const inventoryImportPage = staffPage({
  path: staffPaths.inventoryImport,
  roles: { get: ['manager', 'import and export the inventory'] },
  nav: { label: 'Import and export', place: 20 },
  title: () => 'Import and export',
  load: () => Promise.resolve(null),
  Page: ImportPage,
})

/** Brings the server-rendered import to life (the console's script calls this). */
export function mountInventoryImport(): void {
  const element = document.querySelector<HTMLElement>('[data-inventory-import]')
  if (element) hydrateRoot(element, <InventoryImport />)
}
