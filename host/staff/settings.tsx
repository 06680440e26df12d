import type { ComponentType } from 'react'
import {
  type DealerSettings,
  type DealerSettingsChange,
  type RoutingPool,
  routingPoolLabels,
  routingPools,
} from '../../domain/dealer-settings.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { Checkbox, Field } from './form-kit.tsx'
import { type PostedState, type ProcedureInput, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/settings` (owner): the dealership's settings, one section each, each with its own form
 * and Save button, so saving one never changes another. **Adding a setting**: its key, schema and
 * default in domain/dealer-settings.ts, then a section here (`settingsSections`): a `Component`
 * that shows the fields, named as the setting's schema names them (`leadRouting.denago`, one box
 * per account, posting its id), and `read`, which turns the post, read by `staff.settings.save`'s
 * own schema, into the change to save (an unticked box or an empty group is posted as nothing:
 * `read` says what nothing means). A refused value comes back beside its field, everything typed kept.
 */
/** An account that can be chosen in a setting (the active ones). */
interface SettingsAccount {
  id: number
  username: string
}

/** The post of a section, as the settings' schema reads it. */
type SettingsPost = ProcedureInput<'staff.settings.save'>

interface SettingsSection {
  id: string
  title: string
  Component: ComponentType<{ settings: DealerSettings; accounts: readonly SettingsAccount[]; posted?: PostedState }>
  read(posted: SettingsPost): DealerSettingsChange
}

export const settingsSections: readonly SettingsSection[] = [
  {
    id: 'sign-in',
    title: 'Signing in',
    Component: ({ settings, posted }) => {
      return (
        <>
          <Checkbox
            id="requireSecondStep"
            name="requireSecondStep"
            value="true"
            label="Require a second step for every account"
            defaultChecked={settings.requireSecondStep}
            posted={posted}
            hint="Besides the password, everyone signs in with a passkey or a code from an authenticator app. An account without one is asked to add one before it can use the console."
          />
          {settings.requireSecondStep && (
            <Field
              name="current"
              id="settings-current"
              label="Current password"
              type="password"
              autoComplete="current-password"
              posted={posted}
              hint="Needed to stop requiring the second step."
            />
          )}
        </>
      )
    },
    read: (posted) => ({ requireSecondStep: posted.requireSecondStep ?? false }),
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
            {accounts.map((account) => (
              <Checkbox
                key={account.id}
                name={`leadRouting.${pool}`}
                value={account.id}
                id={`route-${pool}-${account.id}`}
                label={account.username}
                posted={posted}
                defaultChecked={(settings.leadRouting[pool] ?? []).includes(account.id)}
              />
            ))}
          </fieldset>
        ))}
      </>
    ),
    read: (posted) => {
      // A pool with nobody ticked posts nothing: nobody takes its leads.
      const leadRouting: Partial<Record<RoutingPool, number[]>> = {}
      for (const pool of routingPools) {
        const ids = posted.leadRouting?.[pool]
        if (ids?.length) leadRouting[pool] = [...ids].sort((a, b) => a - b)
      }
      return { leadRouting }
    },
  },
]

function SettingsPage({ data, posted }: StaffPageProps<{ settings: DealerSettings; accounts: readonly SettingsAccount[] }>) {
  return (
    <div className="staff-settings">
      <h1>Settings</h1>
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
  roles: { get: ['owner', 'see the settings'], post: ['owner', 'change the settings'] },
  nav: { label: 'Settings', place: 100 },
  title: () => 'Settings',
  async load(context) {
    const [settings, { owners }] = await Promise.all([context.caller.staff.settings.get(), context.caller.staff.lead.choices()])
    return { settings, accounts: owners }
  },
  Page: SettingsPage,
  async post(context, form) {
    const section = settingsSections.find((s) => s.id === form.section)
    if (!section) return { status: 400, posted: { values: form, errors: {}, message: 'That is not a section of the settings.' } }
    const parsed = context.parse('staff.settings.save')
    if (!parsed.ok) return parsed.refusal
    try {
      const { current } = parsed.value
      await context.caller.staff.settings.save({ ...section.read(parsed.value), ...(current ? { current } : {}) })
    } catch (error) {
      const refused = context.refused(error, form)
      return { ...refused, posted: { ...refused.posted, lists: context.lists } }
    }
    return { redirect: `${staffPaths.settings}#section-${section.id}`, notice: 'Settings saved.' }
  },
})
