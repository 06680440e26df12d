import { parseWithZod } from '@conform-to/zod/v4'
import { configureCoercion } from '@conform-to/zod/v4/future'
import type { $ZodRecordDef, $ZodType } from 'zod/v4/core'
import { appRouter } from '../../api/trpc/router.ts'
import type { Parsed, PostedState } from '../staff/page.ts'

/**
 * A console form read by the schema of the procedure it is for (issue #46, decision 0037):
 * Conform's server half (`parseWithZod`) against that procedure's own zod input schema, so a
 * list of ids, a number, a true-or-false and a date arrive typed, with the procedure's own words
 * for what is wrong. The procedure judges the value again when it is called: one schema, read here
 * for its types and its field-by-field answer, enforced there for every door.
 *
 * HTML forms post what Conform expects (a ticked box `on`, repeated names for a list) and two
 * things it leaves to the schema, answered here once for every form:
 * - a box left unticked posts nothing: a true-or-false the schema requires is then false;
 * - an empty choice (`<option value="">Nobody</option>`) is null where the schema allows null.
 */
const coercion = configureCoercion({
  customize(type) {
    const def = type._zod.def as { type: string; innerType?: $ZodType }
    if (def.type === 'boolean') return (value) => (value === undefined || value === '' || value === 'false' ? false : value === 'on' || value === 'true' ? true : value)
    if (def.type === 'nullable' && def.innerType) {
      const inner = def.innerType._zod.def.type
      return (value) => (value === '' || value === undefined ? null : inner === 'number' && typeof value === 'string' ? Number(value) : value)
    }
    // A record (lead routing: a list of account ids per pool, posted as `leadRouting.sales=3`):
    // Conform leaves records as posted, so each entry is coerced as its value's type, then judged.
    if (def.type === 'record') {
      const entry = (type._zod.def as $ZodRecordDef).valueType
      return (value) => (isRecord(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, coerceEntry(entry, item)])) : value)
    }
    return null
  },
})

/** One entry of a record, coerced as its type (no validation: the record's schema judges it after). */
function coerceEntry(type: $ZodType, value: unknown): unknown {
  const coerced = coercion.coerceStructure(type).safeParse(value)
  return coerced.success ? coerced.data : value
}

// At run time `_def.procedures` is flat ('staff.cart.list': procedure); its type is the nested router.
const procedures = new Map(Object.entries<unknown>(appRouter._def.procedures).map(([path, procedure]) => [path, procedure as { _def: { inputs: $ZodType[] } }]))

/** The input schema of a staff procedure, by its path (`staff.accounts.setRole`). */
function inputSchema(procedure: string): $ZodType {
  const schema = procedures.get(procedure)?._def.inputs[0]
  if (!schema) throw new Error(`${procedure} takes no input to parse a form against`)
  return schema
}

/**
 * The posted form as the procedure's input: `fixed` values (from the address, or a button's own
 * choice) are set over anything posted under the same name. For what no procedure takes (the
 * featured order's place, a saved copy's version), a page's own zod schema is read the same way,
 * and its value is what that schema makes of the form.
 */
export function parseStaffForm(
  target: string | $ZodType,
  payload: URLSearchParams,
  fixed: Record<string, string | number | boolean> = {},
): Parsed<unknown> {
  const form = new URLSearchParams(payload)
  for (const [name, value] of Object.entries(fixed)) form.set(name, String(value))
  const schema = typeof target === 'string' ? inputSchema(target) : target
  const submission = parseWithZod(form, { schema: coercion.coerceFormValue(schema), disableAutoCoercion: true })
  if (submission.status === 'success') {
    return { ok: true, value: typeof target === 'string' ? asInput(schema, submission.payload, submission.value) : submission.value }
  }
  return { ok: false, refusal: { status: 400, posted: postedState(submission.payload, submission.error ?? {}) } }
}

/**
 * What the procedure takes, not what its schema makes of it: a schema may transform (a due time
 * to a `Date`), and the procedure parses its input again. So the posted values coerced to the
 * schema's input types (`coerceStructure`: no validation, no transforms), with what the validated
 * value left out (an empty optional field) left out here too.
 */
function asInput(schema: $ZodType, payload: Record<string, unknown>, validated: unknown): unknown {
  const input = coercion.coerceStructure(schema).parse(payload)
  if (!isRecord(input) || !isRecord(validated)) return input
  return Object.fromEntries(Object.entries(input).filter(([name]) => validated[name] !== undefined))
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A refused form as the console's pages show it: what was typed, under the names it was posted
 * under (`leadRouting.sales`), and each field's first problem.
 */
function postedState(payload: Record<string, unknown>, errors: Record<string, string[] | null>): PostedState {
  const values: Record<string, string> = {}
  const lists: Record<string, string[]> = {}
  const read = (record: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(record)) {
      const name = `${prefix}${key}`
      if (typeof value === 'string') values[name] = value
      else if (Array.isArray(value)) lists[name] = value.filter((item): item is string => typeof item === 'string')
      else if (isRecord(value)) read(value, `${name}.`)
    }
  }
  read(payload, '')
  const byField: Record<string, string> = {}
  for (const [path, messages] of Object.entries(errors)) {
    const field = path.split(/[.[]/)[0] ?? path
    if (messages?.[0] && !(field in byField)) byField[field] = messages[0]
  }
  return { values, lists, errors: byField, message: Object.keys(byField).length === 0 ? 'Check the form and send it again.' : undefined }
}

/** A posted body as Express reads it (`urlencoded`, not extended), every value of a repeated name kept. */
export function formPayload(body: unknown): URLSearchParams {
  const payload = new URLSearchParams()
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    for (const item of [value].flat()) if (typeof item === 'string') payload.append(name, item)
  }
  return payload
}
