import { type ComponentType, createElement, type ReactNode } from 'react'
import type { $ZodType, output } from 'zod/v4/core'
import type { createCaller } from '../../api/trpc/router.ts'
import type { AccessRule, StaffRole } from '../../domain/staff-access.ts'
import type { FormState } from '../form-state.ts'

/** The staff procedures as the signed-in person calls them (session and origin checked by each). */
export type StaffCaller = ReturnType<typeof createCaller>

/** A form posted to a console page, rendered again when it was refused: nothing typed is lost. */
export interface PostedState extends FormState {
  /** Which row of a list the post was about (the inventory's one-step change). */
  rowId?: number
  /** What was posted under one name more than once (the boxes ticked), as typed. */
  lists?: Record<string, string[]>
}

type Callable = (...args: never[]) => unknown

/** Every staff procedure by its path: `staff.accounts.setRole`. */
type PathsOf<Tree, Prefix extends string> = {
  [Key in keyof Tree & string]: Tree[Key] extends Callable ? `${Prefix}${Key}` : PathsOf<Tree[Key], `${Prefix}${Key}.`>
}[keyof Tree & string]
export type StaffProcedure = PathsOf<StaffCaller['staff'], 'staff.'>

type At<Tree, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof Tree
    ? At<Tree[Head], Rest>
    : never
  : Path extends keyof Tree
    ? Tree[Path]
    : never

/** What a staff procedure takes, by its path. */
export type ProcedureInput<Path extends StaffProcedure> = At<StaffCaller, Path> extends (input: infer Input) => unknown ? Input : never

/** A posted form read against a procedure's schema: its input, typed, or the form refused (400). */
export type Parsed<Input> = { ok: true; value: Input } | { ok: false; refusal: { status: number; posted: PostedState } }

export interface StaffPageContext {
  caller: StaffCaller
  /** The parameter of the page's address (`{id}`), decoded. */
  params: Record<string, string>
  query: URLSearchParams
  /** Path and query of this page, for forms that come back to it. */
  url: string
  username: string
  /** The signed-in person's role: to leave out what they may not do (the server checks anyway). */
  role: StaffRole
  /**
   * Whether this person may open (or post to) a console address, by the rules its page declares:
   * to leave out a link they would only be refused at. Presentation only: the guard checks every request.
   */
  mayOpen(path: string, method?: 'GET' | 'POST'): boolean
  /**
   * A refused staff call as the form shows it (the error boundary's `{ message, issues }`): each
   * problem beside its field, the rest above the form, with its status. A failure of ours throws.
   */
  refused(error: unknown, values: Record<string, string>, rowId?: number): { status: number; posted: PostedState }
  /**
   * The posted form read against a staff procedure's own input schema (Conform's `parseWithZod`,
   * host/server/staff-forms.ts): lists, numbers, true-or-false and dates typed, or the form
   * refused with each problem beside its field. `fixed` values (the address's id, a button's
   * own choice) are set over what was posted. What no procedure takes (the featured order's
   * place) is read by the page's own zod schema, the same way. (The procedure's form is
   * declared last: `Parameters<parse>` reads the last.)
   */
  parse<Schema extends $ZodType>(schema: Schema, fixed?: Record<string, string | number | boolean>): Parsed<output<Schema>>
  parse<Path extends StaffProcedure>(procedure: Path, fixed?: Record<string, string | number | boolean>): Parsed<ProcedureInput<Path>>
  /** What a post sent under one name more than once (the boxes ticked), as typed. */
  lists: Record<string, string[]>
  /** What the post before this page did, said once (a one-time cookie: a flash), for the layout to show. */
  notice?: string
}

export type PostOutcome =
  /** To this address, with `notice` said once on the page it shows (a flash). */
  | { redirect: string; notice?: string }
  /** Renders the page at `url` (this page when omitted) with the refused form, with `status`. */
  | { status: number; posted: PostedState; url?: string }

export interface StaffPageProps<Data> {
  data: Data
  context: StaffPageContext
  posted?: PostedState
}

/**
 * Who may open a page and who may post its forms: the least role for each and what it lets them
 * do, as the refusal's sentence says it ("Only managers and owners can delete carts."). A page
 * without `get` only takes posts; without `post`, it takes none. PRODUCT.md's table holds them
 * (api/staff/staff-access.test.ts).
 */
export interface PageRoles {
  get?: AccessRule
  post?: AccessRule
}

/**
 * A page's link in the console's navigation: its label, and its place among the links (the
 * lower first; the pages use tens, so a page can go between two without moving them).
 */
export interface NavEntry {
  label: string
  place: number
}

/**
 * One page of the staff console, declared once in its own module: its address, who may open it
 * and post to it, its link in the navigation (pages without one are reached by links), what it
 * loads through the staff procedures, and what its form posts do. The pages are found in their
 * modules (host/staff/pages.ts); the guard's table, the navigation and the role test are made
 * from these declarations.
 */
export interface StaffPage<Data = unknown> {
  /** The address, with at most one `{parameter}`: `/staff/carts/{id}` (domain/staff-paths.ts). */
  path: string
  roles: PageRoles
  nav?: NavEntry
  /** The page's `<title>` and `<h1>`. */
  title(data: Data): string
  load(context: StaffPageContext): Promise<Data>
  Page: ComponentType<StaffPageProps<Data>>
  /** A form posted to this address. */
  post?(context: StaffPageContext, form: Record<string, string>): Promise<PostOutcome>
}

/** A page as the list holds it: its data's type stays inside `show`. */
export interface ListedStaffPage {
  path: string
  roles: PageRoles
  nav?: NavEntry
  post?: StaffPage['post']
  /** Loads the page's data and renders it: its title and its content. */
  show(context: StaffPageContext, posted?: PostedState): Promise<{ title: string; body: ReactNode }>
}

/** What `staffPage` made: how host/staff/pages.ts tells a page from a module's other exports. */
const declared = new WeakSet<object>()

/** Whether a module's export is a console page (made by `staffPage`). */
export function isStaffPage(value: unknown): value is ListedStaffPage {
  return typeof value === 'object' && value !== null && declared.has(value)
}

/** Keeps each page's data type while the list holds pages of every type. */
export function staffPage<Data>(page: StaffPage<Data>): ListedStaffPage {
  const listed: ListedStaffPage = {
    path: page.path,
    roles: page.roles,
    nav: page.nav,
    post: page.post && ((context, form) => page.post!(context, form)),
    async show(context, posted) {
      const data = await page.load(context)
      return { title: page.title(data), body: createElement(page.Page, { data, context, posted }) }
    },
  }
  declared.add(listed)
  return listed
}

/** A page that is not there (a cart deleted, an id that never was): the console's 404. */
export class StaffNotFound extends Error {
  override name = 'StaffNotFound'
}
