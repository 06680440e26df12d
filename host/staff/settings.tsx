import type { ComponentType } from 'react'
import {
  type DealerSettings,
  type DealerSettingsChange,
  type RoutingPool,
  routingPoolLabels,
  routingPools,
} from '../../domain/dealer-settings.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { type PostedState, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/settings` (owner): the dealership's settings, one section each, each with its own form
 * and Save button, so saving one never changes another. **Adding a setting**: its key, schema and
 * default in domain/dealer-settings.ts, then a section here (`settingsSections`): a `Component`
 * that shows the fields and `read`, which turns the posted fields into the change to save.
 * `staff.settings.save` checks it against the one schema; a refused value comes back beside its
 * field, everything typed kept.
 */
/** An account that can be chosen in a setting (the active ones). */
interface SettingsAccount {
  id: number
  username: string
}

/** The checkbox saying an account takes a pool's leads: one name each, so the form posts plain fields. */
const routeField = (pool: RoutingPool, id: number) => `route-${pool}-${id}`

interface SettingsSection {
  id: string
  title: string
  Component: ComponentType<{ settings: DealerSettings; accounts: readonly SettingsAccount[]; posted?: PostedState }>
  read(form: Record<string, string>): DealerSettingsChange
}

export const settingsSections: readonly SettingsSection[] = [
  {
    id: 'sign-in',
    title: 'Signing in',
    Component: ({ settings, posted }) => {
      const checked = posted ? posted.values.requireSecondStep === 'true' : settings.requireSecondStep
      return (
        <div className="staff-field staff-field--check">
          <input
            id="requireSecondStep"
            name="requireSecondStep"
            type="checkbox"
            value="true"
            defaultChecked={checked}
            aria-describedby="requireSecondStep-hint"
          />
          <label htmlFor="requireSecondStep">Require a second step for every account</label>
          <p className="staff-hint" id="requireSecondStep-hint">
            Besides the password, everyone signs in with a passkey or a code from an authenticator app. An account
            without one is asked to add one before it can use the console.
          </p>
          {posted?.errors.requireSecondStep && <p className="staff-error">{posted.errors.requireSecondStep}</p>}
        </div>
      )
    },
    read: (form) => ({ requireSecondStep: form.requireSecondStep === 'true' }),
  },
  {
    id: 'lead-routing',
    title: 'Lead routing',
    Component: ({ settings, accounts, posted }) => (
      <>
        <p className="staff-hint" id="leadRouting-hint">
          Each new lead goes to the next of the accounts ticked for its interest, in turn, as it arrives. With nobody
          ticked, its leads stay unassigned and everyone who takes leads is alerted.
        </p>
        {posted?.errors.leadRouting && <p className="staff-error">{posted.errors.leadRouting}</p>}
        {routingPools.map((pool) => (
          <fieldset key={pool} className="staff-routing" aria-describedby="leadRouting-hint">
            <legend>{routingPoolLabels[pool]}</legend>
            {accounts.map((account) => {
              const name = routeField(pool, account.id)
              const checked = posted ? posted.values[name] === 'true' : (settings.leadRouting[pool] ?? []).includes(account.id)
              return (
                <div key={account.id} className="staff-field staff-field--check">
                  <input id={name} name={name} type="checkbox" value="true" defaultChecked={checked} />
                  <label htmlFor={name}>{account.username}</label>
                </div>
              )
            })}
          </fieldset>
        ))}
      </>
    ),
    read: (form) => {
      const leadRouting: Partial<Record<RoutingPool, number[]>> = {}
      for (const pool of routingPools) {
        const prefix = `route-${pool}-`
        const ids = Object.keys(form)
          .filter((key) => key.startsWith(prefix) && form[key] === 'true')
          .map((key) => Number(key.slice(prefix.length)))
          .filter((id) => Number.isSafeInteger(id) && id > 0)
        if (ids.length > 0) leadRouting[pool] = ids.sort((a, b) => a - b)
      }
      return { leadRouting }
    },
  },
]

const savedMessage = 'Settings saved.'

function SettingsPage({ data, posted }: StaffPageProps<{ settings: DealerSettings; accounts: readonly SettingsAccount[]; saved?: string }>) {
  return (
    <div className="staff-settings">
      <h1>Settings</h1>
      {data.saved && (
        <p className="staff-alert staff-alert--done" role="status">
          {savedMessage}
        </p>
      )}
      {posted?.message && !settingsSections.some((s) => s.id === posted.values.section) && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.message}
        </p>
      )}
      {settingsSections.map((section) => {
        const mine = posted?.values.section === section.id ? posted : undefined
        return (
          <form key={section.id} method="post" action={staffPaths.settings} className="staff-form" aria-labelledby={`settings-${section.id}`}>
            <fieldset className="staff-section" id={`section-${section.id}`}>
              <legend id={`settings-${section.id}`}>{section.title}</legend>
              {mine?.message && (
                <p className="staff-alert staff-alert--error" role="alert">
                  {mine.message}
                </p>
              )}
              <input type="hidden" name="section" value={section.id} />
              <section.Component settings={data.settings} accounts={data.accounts} posted={mine} />
              <div className="staff-form__actions">
                <button className="staff-button" type="submit">
                  Save
                </button>
              </div>
            </fieldset>
          </form>
        )
      })}
    </div>
  )
}

export const settingsPage = staffPage({
  path: staffPaths.settings,
  nav: 'Settings',
  title: () => 'Settings',
  async load(context) {
    const [settings, { owners }] = await Promise.all([context.caller.staff.settings.get(), context.caller.staff.lead.choices()])
    return { settings, accounts: owners, saved: context.query.get('saved') ?? undefined }
  },
  Page: SettingsPage,
  async post(context, form) {
    const section = settingsSections.find((s) => s.id === form.section)
    if (!section) return { status: 400, posted: { values: form, errors: {}, message: 'That is not a section of the settings.' } }
    try {
      await context.caller.staff.settings.save(section.read(form))
    } catch (error) {
      return context.refused(error, form)
    }
    return { redirect: `${staffPaths.settings}?saved=${encodeURIComponent(section.id)}#section-${section.id}` }
  },
})
