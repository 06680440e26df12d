import r2wc from '@r2wc/react-to-web-component'
import type { ReactNode } from 'react'
import isolationCss from './isolation.css?inline'
import themeCss from './theme.css?inline'
import { trimApiBase } from './urls.ts'

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
  styles: readonly string[]
  /** Providers around the content: the API for elements that fetch, toasts for the form. */
  wrap?(content: ReactNode, apiBase: string): ReactNode
  render(attributes: WidgetAttributes, emit: Emit): ReactNode
}

/**
 * Dispatches one of our events on the element: a `CustomEvent` that bubbles and crosses shadow
 * roots (docs/CONTRACTS.md). Returns false when a listener called `preventDefault()` on a
 * cancelable one: `gc-vehicle-select` then keeps the visitor on the partner's page.
 */
export type Emit = (event: WidgetEvent, detail: unknown) => boolean

const cancelable: ReadonlySet<WidgetEvent> = new Set(['gc-vehicle-select'])

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

  function Element(props: Record<string, unknown>) {
    // "https://dealer.test/" and "https://dealer.test" are the same API to a partner.
    const attributes = { ...props, apiBase: trimApiBase(props.apiBase) || defaultApiBase } as WidgetAttributes
    // r2wc hands the component its shadow root as `container`. Its own events cannot be
    // cancelled, nor tell whether they were, so ours are dispatched here.
    const host = (props.container as ShadowRoot).host
    const emit: Emit = (event, detail) =>
      host.dispatchEvent(new CustomEvent(event, { detail, bubbles: true, composed: true, cancelable: cancelable.has(event) }))
    const content = definition.render(attributes, emit)
    return (
      <div className="gc-widget gc-theme" part="root">
        {definition.wrap ? definition.wrap(content, attributes.apiBase) : content}
      </div>
    )
  }

  const props = { apiBase: 'string', ...definition.attributes } as const
  const Base = r2wc(Element, { shadow: 'open', props }) as {
    new (): R2wcInternals & {
      connectedCallback(): void
      attributeChangedCallback(name: string, old: string | null, value: string | null): void
      disconnectedCallback(): void
    }
    observedAttributes: string[]
  }

  class WidgetElement extends Base {
    constructor() {
      super()
      this.shadowRoot!.adoptedStyleSheets = [sheet]
    }

    /**
     * A property set before this code arrived (`el.slug = '...'` by Angular, Lit or Vue while
     * the loader was still fetching us) sits on the element itself and hides r2wc's accessor,
     * so the widget would never see it or any later value. Re-set through the accessor, as
     * Lit and Shoelace do on upgrade.
     */
    override connectedCallback() {
      for (const prop of Object.keys(props)) {
        if (!Object.prototype.hasOwnProperty.call(this, prop)) continue
        const value: unknown = Reflect.get(this, prop)
        Reflect.deleteProperty(this, prop)
        Reflect.set(this, prop, value)
      }
      super.connectedCallback()
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
