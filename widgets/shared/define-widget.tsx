import r2wc from '@r2wc/react-to-web-component'
import type { ReactNode } from 'react'
import isolationCss from './isolation.css?inline'
import themeCss from './theme.css?inline'

/**
 * The one way a widget becomes a custom element: r2wc with an open shadow root, the widget's
 * styles adopted into it, and fixes for the r2wc behaviours our partners would trip over.
 */
export type WidgetEvent = 'gc-lead-submitted' | 'gc-vehicle-select' | 'gc-error'
export type WidgetAttributes = Record<string, string | number | undefined> & { apiBase: string }

export interface WidgetDefinition {
  tag: `gc-${string}`
  /** camelCase prop names; r2wc maps `vehicleHref` to the `vehicle-href` attribute. */
  attributes: Record<string, 'string' | 'number'>
  events: readonly WidgetEvent[]
  styles: readonly string[]
  /** Providers around the content: the API for elements that fetch, toasts for the form. */
  wrap?(content: ReactNode, apiBase: string): ReactNode
  render(attributes: WidgetAttributes, emit: (event: WidgetEvent, detail: unknown) => void): ReactNode
}

/** Where the loader came from: partners need not set `api-base` (docs/CONTRACTS.md). */
export const defaultApiBase = new URL(import.meta.url).origin

const propsKey = Symbol.for('r2wc.props')
const renderKey = Symbol.for('r2wc.render')
type R2wcInternals = HTMLElement & { [propsKey]: Record<string, unknown>; [renderKey](): void }

export function defineWidget(definition: WidgetDefinition): void {
  // A page may load the bundle twice (two script tags, two versions): the first one wins.
  if (customElements.get(definition.tag)) return

  const sheet = new CSSStyleSheet()
  sheet.replaceSync([isolationCss, themeCss, ...definition.styles].join('\n'))

  // r2wc names an event after its prop, minus "on": `ongc-lead-submitted` dispatches
  // `gc-lead-submitted`. Its default is neither bubbling nor composed; partners need both.
  const eventProp = (event: WidgetEvent) => `on${event}`
  const events = Object.fromEntries(definition.events.map((e) => [eventProp(e), { bubbles: true, composed: true }]))

  function Element(props: Record<string, unknown>) {
    const attributes = { ...props, apiBase: (props.apiBase as string | undefined) || defaultApiBase } as WidgetAttributes
    const emit = (event: WidgetEvent, detail: unknown) => (props[eventProp(event)] as ((d: unknown) => void) | undefined)?.(detail)
    const content = definition.render(attributes, emit)
    return (
      <div className="gc-widget gc-theme" part="root">
        {definition.wrap ? definition.wrap(content, attributes.apiBase) : content}
      </div>
    )
  }

  const Base = r2wc(Element, { shadow: 'open', props: { apiBase: 'string', ...definition.attributes }, events }) as unknown as {
    new (): R2wcInternals & { attributeChangedCallback(name: string, old: string | null, value: string | null): void; disconnectedCallback(): void }
    observedAttributes: string[]
  }

  class WidgetElement extends Base {
    constructor() {
      super()
      this.shadowRoot!.adoptedStyleSheets = [sheet]
    }

    /** r2wc ignores a removed or emptied attribute and keeps the old value (r2wc issue #230). */
    override attributeChangedCallback(name: string, old: string | null, value: string | null) {
      if (value === null || value === '') {
        const prop = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
        if (this[propsKey][prop] === undefined) return
        this[propsKey][prop] = undefined
        this[renderKey]()
        return
      }
      super.attributeChangedCallback(name, old, value)
    }

    /**
     * Moving an element (a CMS re-parenting it, a modal opening) disconnects and reconnects it
     * in one task. r2wc would unmount and remount it, losing what a visitor typed; unmounting
     * only if it is still detached a moment later keeps the form intact.
     */
    override disconnectedCallback() {
      queueMicrotask(() => {
        if (!this.isConnected) super.disconnectedCallback()
      })
    }
  }

  customElements.define(definition.tag, WidgetElement)
}
