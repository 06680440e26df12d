import { X } from 'lucide-react'
import {
  createContext,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'

/**
 * Notifications (docs/PRODUCT.md, "Behaviour everywhere"): one at a time, shown 5 seconds, swipe right 50 px to
 * dismiss, F8 moves focus to them. A new toast replaces the one on screen.
 */
export interface Toast {
  title: string
  description?: string
  variant?: 'default' | 'destructive'
  /**
   * An element the toast must not cover (a form's Send button): the toast goes to the edge of
   * the screen away from it, so a visitor can press it again at once.
   */
  avoid?: Element | null
}

/** The top edge when the element to avoid sits in the lower half of the screen, else the bottom. */
export function toastEdge(avoid: Element | null | undefined): 'top' | 'bottom' {
  if (!avoid || typeof window === 'undefined') return 'bottom'
  const box = avoid.getBoundingClientRect()
  return box.top + box.height / 2 > window.innerHeight / 2 ? 'top' : 'bottom'
}

export const toastDurationMs = 5000
const swipeThresholdPx = 50

const ToastContext = createContext<(toast: Toast) => void>(() => {})

export function useToast(): (toast: Toast) => void {
  return useContext(ToastContext)
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<(Toast & { key: number; edge: 'top' | 'bottom' }) | null>(null)
  const keys = useRef(0)
  const show = useCallback((toast: Toast) => setCurrent({ ...toast, key: ++keys.current, edge: toastEdge(toast.avoid) }), [])
  const dismiss = useCallback(() => setCurrent(null), [])
  return (
    <ToastContext.Provider value={show}>
      {children}
      <ToastRegion toast={current} onDismiss={dismiss} />
    </ToastContext.Provider>
  )
}

function ToastRegion({ toast, onDismiss }: { toast: (Toast & { key: number; edge: 'top' | 'bottom' }) | null; onDismiss: () => void }) {
  const region = useRef<HTMLElement>(null)
  const [paused, setPaused] = useState(false)
  const [offset, setOffset] = useState(0)
  const swipeStart = useRef<number | null>(null)

  useEffect(() => {
    if (!toast || paused) return
    const timer = setTimeout(onDismiss, toastDurationMs)
    return () => clearTimeout(timer)
  }, [toast, paused, onDismiss])

  useEffect(() => setOffset(0), [toast])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8' && toast) {
        event.preventDefault()
        region.current?.focus()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [toast])

  const swipe = useMemo(
    () => ({
      onPointerDown: (e: PointerEvent) => {
        swipeStart.current = e.clientX
      },
      onPointerMove: (e: PointerEvent) => {
        if (swipeStart.current !== null) setOffset(Math.max(0, e.clientX - swipeStart.current))
      },
      onPointerUp: (e: PointerEvent) => {
        const moved = swipeStart.current === null ? 0 : e.clientX - swipeStart.current
        swipeStart.current = null
        if (moved > swipeThresholdPx) onDismiss()
        else setOffset(0)
      },
    }),
    [onDismiss],
  )

  return (
    <section
      ref={region}
      className={toast?.edge === 'top' ? 'gc-toasts gc-toasts--top' : 'gc-toasts'}
      aria-label="Notifications (F8)"
      tabIndex={-1}
      part="toasts"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {/* Live regions must exist before their text changes, or screen readers stay silent. */}
      <div role="status" aria-live="polite" aria-atomic="true">
        {toast && toast.variant !== 'destructive' && <ToastCard toast={toast} offset={offset} swipe={swipe} onDismiss={onDismiss} />}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true">
        {toast?.variant === 'destructive' && <ToastCard toast={toast} offset={offset} swipe={swipe} onDismiss={onDismiss} />}
      </div>
    </section>
  )
}

function ToastCard(props: {
  toast: Toast
  offset: number
  swipe: Record<string, (e: PointerEvent) => void>
  onDismiss: () => void
}) {
  const { toast, offset } = props
  return (
    <div
      className={`gc-toast${toast.variant === 'destructive' ? ' gc-toast--destructive' : ''}`}
      part="toast"
      style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 200) } : undefined}
      {...props.swipe}
    >
      <div className="gc-toast__text">
        <p className="gc-toast__title">{toast.title}</p>
        {toast.description && <p className="gc-toast__description">{toast.description}</p>}
      </div>
      <button type="button" className="gc-toast__close" aria-label="Close notification" onClick={props.onDismiss}>
        <X aria-hidden="true" size={16} />
      </button>
    </div>
  )
}
