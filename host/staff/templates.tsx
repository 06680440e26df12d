import { TRPCError } from '@trpc/server'
import { placeholderMeanings, templateLimits, templatePlaceholders } from '../../domain/reply-templates.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { dealerTime } from './leads/inbox-filter.ts'
import { Field, Notice } from './form-kit.tsx'
import { type PostedState, type StaffCaller, type StaffPageContext, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/templates` (managers and owners; PRODUCT.md, "templates"): the reply templates the
 * lead page's reply box offers, each with its placeholders filled in for the lead and the person
 * replying. Add, change and delete (after a confirmation step, `?remove=ID`); `?edit=ID` puts one
 * in the form. Plain forms posting `action` (decision 0016); `staff.template.save` judges them.
 */
type Template = Awaited<ReturnType<StaffCaller['staff']['template']['list']>>[number]

interface TemplatesData {
  templates: Template[]
  editing?: Template
  removing?: Template
}

const asId = (value: string | null) => (value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : undefined)

async function loadTemplates(context: StaffPageContext): Promise<TemplatesData> {
  const templates = await context.caller.staff.template.list()
  return {
    templates,
    editing: templates.find((t) => t.id === asId(context.query.get('edit'))),
    removing: templates.find((t) => t.id === asId(context.query.get('remove'))),
  }
}

function Placeholders() {
  return (
    <section aria-labelledby="placeholders-heading" className="lead-panel">
      <h2 id="placeholders-heading">Placeholders</h2>
      <p className="staff-hint">Write one in braces and the reply box fills it in for the lead and the person replying.</p>
      <dl className="templates-placeholders">
        {templatePlaceholders.map((name) => (
          <div key={name}>
            <dt>
              <code>{`{${name}}`}</code>
            </dt>
            <dd>{placeholderMeanings[name]}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

function RemoveConfirmation({ template }: { template: Template }) {
  return (
    <form method="post" action={staffPaths.templates} className="staff-form staff-confirm" id="confirm-remove" aria-labelledby="confirm-remove-title">
      <h2 id="confirm-remove-title">Delete the template “{template.name}”?</h2>
      <p>The reply box stops offering it. Replies already sent with it stay on their leads’ timelines.</p>
      <input type="hidden" name="action" value="remove" />
      <input type="hidden" name="id" value={template.id} />
      <input type="hidden" name="confirm" value="yes" />
      <div className="staff-form__actions">
        <button className="staff-button staff-button--danger" type="submit">
          Delete {template.name}
        </button>
        <a className="staff-button staff-button--quiet" href={staffPaths.templates}>
          Keep it
        </a>
      </div>
    </form>
  )
}

function TemplateForm({ editing, posted }: { editing?: Template; posted?: PostedState }) {
  const mine = posted?.values.action === 'save' ? posted : undefined
  const values = mine?.values ?? (editing ? { id: String(editing.id), name: editing.name, body: editing.body } : {})
  const id = values.id || undefined
  return (
    <form method="post" action={staffPaths.templates} className="staff-form lead-panel" id="template-form" aria-labelledby="template-form-title">
      <h2 id="template-form-title">{id ? `Change “${editing?.name ?? values.name}”` : 'New template'}</h2>
      <Notice tone="error">{mine?.message}</Notice>
      <input type="hidden" name="action" value="save" />
      {id && <input type="hidden" name="id" value={id} />}
      <Field name="name" id="template-name" label="Name" posted={mine} defaultValue={values.name}>
        {(control) => <input {...control} type="text" required maxLength={templateLimits.name} autoComplete="off" />}
      </Field>
      <Field
        name="body"
        id="template-body"
        label="Text"
        posted={mine}
        defaultValue={values.body}
        hint={
          <>
            For example: “Hi {'{firstName}'}, this is {'{salesperson}'} at {'{dealer}'}. {'{cart}'} is here: when can you come by? {'{phone}'}”. A text can be at
            most 1600 characters once filled in.
          </>
        }
      >
        {(control) => <textarea {...control} required rows={6} maxLength={templateLimits.body} />}
      </Field>
      <div className="staff-form__actions">
        <button className="staff-button" type="submit">
          {id ? 'Save changes' : 'Add template'}
        </button>
        {id && (
          <a className="staff-button staff-button--quiet" href={staffPaths.templates}>
            Cancel
          </a>
        )}
      </div>
    </form>
  )
}

function TemplatesPage({ data, posted }: StaffPageProps<TemplatesData>) {
  return (
    <div className="lead-page templates-page">
      <h1>Reply templates</h1>
      <p className="staff-hint">The reply box on every lead’s page offers these; anyone who reads leads can use them, managers and owners keep them.</p>
      {posted?.message && posted.values.action !== 'save' && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.message}
        </p>
      )}
      {data.removing && <RemoveConfirmation template={data.removing} />}
      <section aria-labelledby="templates-heading" className="lead-panel">
        <h2 id="templates-heading">Templates</h2>
        {data.templates.length === 0 ? (
          <p className="staff-muted">No templates yet: add the first below.</p>
        ) : (
          <ul className="templates-list">
            {data.templates.map((template) => (
              <li key={template.id} aria-labelledby={`template-${template.id}-name`}>
                <h3 id={`template-${template.id}-name`}>{template.name}</h3>
                <p className="templates-list__body">{template.body}</p>
                <p className="staff-hint">
                  Changed <time dateTime={template.updatedAt}>{dealerTime(template.updatedAt)}</time>
                  {template.updatedBy && <> by {template.updatedBy}</>}
                </p>
                <p className="templates-list__actions">
                  <a className="staff-link-button" href={`${staffPaths.templates}?edit=${template.id}#template-form`}>
                    Change<span className="gc-sr-only"> {template.name}</span>
                  </a>
                  <a className="staff-link-button staff-link-button--danger" href={`${staffPaths.templates}?remove=${template.id}#confirm-remove`}>
                    Delete<span className="gc-sr-only"> {template.name}</span>
                  </a>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Placeholders />
      <TemplateForm editing={data.editing} posted={posted} />
    </div>
  )
}

export const templatesPage = staffPage<TemplatesData>({
  path: staffPaths.templates,
  roles: { get: ['manager', 'manage reply templates'], post: ['manager', 'manage reply templates'] },
  nav: { label: 'Templates', place: 40 },
  title: () => 'Reply templates',
  load: loadTemplates,
  Page: TemplatesPage,
  async post(context, form) {
    try {
      switch (form.action) {
        case 'save': {
          const parsed = context.parse('staff.template.save')
          if (!parsed.ok) return parsed.refusal
          const saved = await context.caller.staff.template.save(parsed.value)
          return { redirect: staffPaths.templates, notice: `“${saved.name}” is saved.` }
        }
        case 'remove': {
          const parsed = context.parse('staff.template.remove')
          if (!parsed.ok) break
          const { id } = parsed.value
          // A deletion not confirmed on this page is asked first.
          if (form.confirm !== 'yes') return { redirect: `${staffPaths.templates}?remove=${id}#confirm-remove` }
          const name = (await context.caller.staff.template.list()).find((t) => t.id === id)?.name ?? `template ${id}`
          await context.caller.staff.template.remove(parsed.value)
          return { redirect: staffPaths.templates, notice: `“${name}” is deleted.` }
        }
      }
      return { status: 400, posted: { values: form, errors: {}, message: 'That is not something this page does.' } }
    } catch (error) {
      if (error instanceof TRPCError && error.code === 'NOT_FOUND') {
        return { status: 404, posted: { values: form, errors: {}, message: 'That template is not there any more: someone deleted it.' } }
      }
      return context.refused(error, form)
    }
  },
})
