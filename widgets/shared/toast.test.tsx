import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Toast, ToastProvider, useToast } from './toast.tsx'

function Trigger(props: { toast: Toast }) {
  const toast = useToast()
  return (
    <button type="button" onClick={() => toast(props.toast)}>
      notify {props.toast.title}
    </button>
  )
}

const renderToasts = () =>
  render(
    <ToastProvider>
      <Trigger toast={{ title: 'Saved', description: 'All good' }} />
      <Trigger toast={{ title: 'Failed', description: '500: boom', variant: 'destructive' }} />
    </ToastProvider>,
  )
const region = () => screen.getByRole('region', { name: 'Notifications (F8)' })
const shown = () => Array.from(region().querySelectorAll('.gc-toast__title')).map((t) => t.textContent)

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('shows one at a time: a new toast replaces the one on screen', () => {
    renderToasts()
    fireEvent.click(screen.getByText('notify Saved'))
    fireEvent.click(screen.getByText('notify Failed'))
    expect(shown()).toEqual(['Failed'])
    expect(screen.getByRole('alert').textContent).toContain('500: boom')
  })

  it('announces ordinary toasts politely and failures assertively', () => {
    renderToasts()
    fireEvent.click(screen.getByText('notify Saved'))
    expect(screen.getByRole('status').textContent).toContain('All good')
    expect(screen.getByRole('alert').textContent).toBe('')
  })

  it('disappears after 5 seconds', () => {
    renderToasts()
    fireEvent.click(screen.getByText('notify Saved'))
    act(() => {
      vi.advanceTimersByTime(4900)
    })
    expect(shown()).toEqual(['Saved'])
    act(() => {
      vi.advanceTimersByTime(200)
    })
    expect(shown()).toEqual([])
  })

  it('is dismissed by a swipe right past 50 px, not by a shorter one', () => {
    renderToasts()
    fireEvent.click(screen.getByText('notify Saved'))
    const card = region().querySelector('.gc-toast')!
    fireEvent.pointerDown(card, { clientX: 100 })
    fireEvent.pointerMove(card, { clientX: 130 })
    fireEvent.pointerUp(card, { clientX: 130 })
    expect(shown()).toEqual(['Saved'])
    fireEvent.pointerDown(card, { clientX: 100 })
    fireEvent.pointerMove(card, { clientX: 160 })
    fireEvent.pointerUp(card, { clientX: 160 })
    expect(shown()).toEqual([])
  })

  it('can be closed with its button', () => {
    renderToasts()
    fireEvent.click(screen.getByText('notify Failed'))
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }))
    expect(shown()).toEqual([])
  })

  it('moves focus to the notifications on F8', () => {
    renderToasts()
    fireEvent.click(screen.getByText('notify Saved'))
    fireEvent.keyDown(window, { key: 'F8' })
    expect(document.activeElement).toBe(region())
  })
})
