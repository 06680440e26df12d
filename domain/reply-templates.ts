import * as z from 'zod/mini'
import { business } from './business.ts'
import { plainText } from './inquiry.ts'

/**
 * Reply templates (PRODUCT.md, "templates"): owners and managers keep them, the reply box offers
 * them, and one function fills in their placeholders for a lead.
 */
export const templatePlaceholders = ['firstName', 'cart', 'salesperson', 'dealer', 'phone'] as const
export type TemplatePlaceholder = (typeof templatePlaceholders)[number]

/** What each placeholder becomes, as the templates page explains it. */
export const placeholderMeanings: Record<TemplatePlaceholder, string> = {
  firstName: 'the shopper’s first name',
  cart: 'the cart the lead is about (or “a golf cart”)',
  salesperson: 'your name',
  dealer: business.name,
  phone: `the dealer’s phone, ${business.tollFree.display}`,
}

export type TemplateValues = Record<TemplatePlaceholder, string>

/** The values for one lead and the person replying; the dealer's name and phone are the business facts. */
export function templateValues(lead: { firstName: string; cartTitle: string | null }, salesperson: string): TemplateValues {
  return {
    firstName: lead.firstName.trim(),
    cart: lead.cartTitle?.trim() || 'a golf cart',
    salesperson,
    dealer: business.name,
    phone: business.tollFree.display,
  }
}

const placeholder = /\{(\w+)\}/g

/** A template's text with every known placeholder filled in; anything else in braces stays as written. */
export function renderTemplate(body: string, values: TemplateValues): string {
  return body.replace(placeholder, (whole, name: string) =>
    (templatePlaceholders as readonly string[]).includes(name) ? values[name as TemplatePlaceholder] : whole,
  )
}

/** The placeholders a template names that do not exist ("{first_name}"), each once. */
export function unknownPlaceholders(body: string): string[] {
  const names = [...body.matchAll(placeholder)].map((m) => m[1]!)
  return [...new Set(names.filter((name) => !(templatePlaceholders as readonly string[]).includes(name)))]
}

export const templateLimits = { name: 100, body: 5000 } as const

/** A template as the templates page posts it: `id` to change one, none to add one. */
export const templateInput = z.object({
  id: z.optional(z.int('id must be a whole number').check(z.minimum(1, 'id must be positive'))),
  name: z.string('Name the template').check(
    z.trim(),
    z.minLength(1, 'Name the template'),
    z.maxLength(templateLimits.name, `A name can be at most ${templateLimits.name} characters`),
    plainText('The name'),
  ),
  body: z.string('Write the template').check(
    z.trim(),
    z.minLength(1, 'Write the template'),
    z.maxLength(templateLimits.body, `A template can be at most ${templateLimits.body} characters`),
    plainText('The template', { lines: true }),
    z.superRefine((body, ctx) => {
      const unknown = unknownPlaceholders(body)
      if (unknown.length === 0) return
      const known = templatePlaceholders.map((p) => `{${p}}`).join(', ')
      ctx.issues.push({ code: 'custom', input: body, message: `${unknown.map((u) => `{${u}}`).join(', ')} is not a placeholder: use ${known}` })
    }),
  ),
})
export type TemplateInput = z.output<typeof templateInput>
