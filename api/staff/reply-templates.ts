import { renderTemplate, type TemplateInput, templateValues } from '../../domain/reply-templates.ts'
import type { Sql } from '../db/database.ts'
import { FieldError } from '../http/errors.ts'
import { type Actor, recordChanges } from './audit.ts'
import { NoSuchLeadError } from './lead-inbox.ts'

/**
 * Reply templates (PRODUCT.md, "templates"; table `reply_templates`, migration 0037): owners and
 * managers keep them, everyone who reads leads uses them. Each change is in the audit log.
 */
export interface ReplyTemplate {
  id: number
  name: string
  body: string
  updatedBy: string | null
  updatedAt: string
}

export class NoSuchTemplateError extends Error {
  override name = 'NoSuchTemplateError'
  constructor(readonly id: number) {
    super(`No reply template has the id ${id}`)
  }
}

export function createReplyTemplates(sql: Sql) {
  const byId = async (id: number) => {
    const [template] = await sql<ReplyTemplate[]>`
      select id, name, body, updated_by, to_json(updated_at) #>> '{}' as updated_at from reply_templates where id = ${id}
    `
    if (!template) throw new NoSuchTemplateError(id)
    return template
  }
  return {
    /** Every template, by name. */
    list(): Promise<ReplyTemplate[]> {
      return sql<ReplyTemplate[]>`
        select id, name, body, updated_by, to_json(updated_at) #>> '{}' as updated_at from reply_templates order by lower(name), id
      `.then((rows) => [...rows])
    },

    /** Adds a template, or changes the one `id` names. Two templates never share a name. */
    async save(actor: Actor, input: TemplateInput): Promise<ReplyTemplate> {
      const id = await sql.begin(async (tx) => {
        const [taken] = await tx<{ id: number }[]>`select id from reply_templates where lower(name) = lower(${input.name}) and id <> ${input.id ?? 0}`
        if (taken) {
          const message = `A template named “${input.name}” exists already: choose another name`
          throw new FieldError([{ path: 'name', message }], message)
        }
        if (input.id === undefined) {
          const [row] = await tx<[{ id: number }]>`
            insert into reply_templates (name, body, updated_by) values (${input.name}, ${input.body}, ${actor.name}) returning id
          `
          await recordChanges(tx, actor, 'reply-template', row.id, [{ action: 'create', after: { name: input.name, body: input.body } }])
          return row.id
        }
        const [before] = await tx<{ name: string; body: string }[]>`select name, body from reply_templates where id = ${input.id} for update`
        if (!before) throw new NoSuchTemplateError(input.id)
        await tx`update reply_templates set name = ${input.name}, body = ${input.body}, updated_by = ${actor.name}, updated_at = now() where id = ${input.id}`
        await recordChanges(
          tx,
          actor,
          'reply-template',
          input.id,
          (['name', 'body'] as const)
            .filter((field) => before[field] !== input[field])
            .map((field) => ({ action: 'update', field, before: before[field], after: input[field] })),
        )
        return input.id
      })
      return byId(id)
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await sql.begin(async (tx) => {
        const [gone] = await tx<{ name: string; body: string }[]>`delete from reply_templates where id = ${id} returning name, body`
        if (!gone) throw new NoSuchTemplateError(id)
        await recordChanges(tx, actor, 'reply-template', id, [{ action: 'delete', before: gone }])
      })
    },

    /** A template filled in for a lead and the person replying (domain/reply-templates.ts). */
    async render(id: number, leadId: number, actor: Actor): Promise<{ body: string }> {
      const template = await byId(id)
      const [lead] = await sql<{ firstName: string; cartTitle: string | null }[]>`
        select first_name, cart_title from contact_inquiries where id = ${leadId} and spam_reason is null
      `
      if (!lead) throw new NoSuchLeadError(leadId)
      return { body: renderTemplate(template.body, templateValues(lead, actor.name)) }
    },
  }
}

export type ReplyTemplates = ReturnType<typeof createReplyTemplates>
