import { type ComponentType, createElement, type ReactNode } from 'react'
import type { createCaller } from '../../api/trpc/router.ts'
import { roleAllows, routeRule, type StaffRole } from '../../domain/staff-access.ts'
import type { FormState } from '../form-state.ts'

/** The staff procedures as the signed-in person calls them (session and origin checked by each). */
export type StaffCaller = ReturnType<typeof createCaller>

/** A form posted to a console page, rendered again when it was refused: nothing typed is lost. */
export interface PostedState extends FormState {
  /** Which row of a list the post was about (the inventory's one-step change). */
  rowId?: number
}

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
   * A refused staff call as the form shows it (the error boundary's `{ message, issues }`): each
   * problem beside its field, the rest above the form, with its status. A failure of ours throws.
   */
  refused(error: unknown, values: Record<string, string>, rowId?: number): { status: number; posted: PostedState }
}

export type PostOutcome =
  | { redirect: string }
  /** Renders the page at `url` (this page when omitted) with the refused form, with `status`. */
  | { status: number; posted: PostedState; url?: string }

export interface StaffPageProps<Data> {
  data: Data
  context: StaffPageContext
  posted?: PostedState
}

/**
 * One page of the staff console. The pages are one list (host/staff/pages.tsx): its address, its
 * label in the console's navigation (pages without one are reached by links), what it loads
 * through the staff procedures, and what its form posts do.
 */
export interface StaffPage<Data = unknown> {
  /** The address, with at most one `{parameter}`: `/staff/carts/{id}`. */
  path: string
  nav?: string
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
  nav?: string
  post?: StaffPage['post']
  /** Loads the page's data and renders it: its title and its content. */
  show(context: StaffPageContext, posted?: PostedState): Promise<{ title: string; body: ReactNode }>
}

/** Keeps each page's data type while the list holds pages of every type. */
export function staffPage<Data>(page: StaffPage<Data>): ListedStaffPage {
  return {
    path: page.path,
    nav: page.nav,
    post: page.post && ((context, form) => page.post!(context, form)),
    async show(context, posted) {
      const data = await page.load(context)
      return { title: page.title(data), body: createElement(page.Page, { data, context, posted }) }
    },
  }
}

/**
 * Whether this person's role may open a console address (domain/staff-access.ts), to leave out a
 * link they would only be refused at. Presentation only: the server checks every request.
 */
export function mayOpen(context: Pick<StaffPageContext, 'role'>, path: string, method: 'GET' | 'POST' = 'GET'): boolean {
  const found = routeRule(method, path)
  return found !== undefined && roleAllows(context.role, found.rule[0])
}

/** A page that is not there (a cart deleted, an id that never was): the console's 404. */
export class StaffNotFound extends Error {
  override name = 'StaffNotFound'
}
