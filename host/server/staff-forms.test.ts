import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { newJerseyToday } from '../../domain/calendar-days.ts'
import { savedCartKey } from '../../domain/cart-record.ts'
import { parseStaffForm } from './staff-forms.ts'

/** A form as a browser posts it, read by a staff procedure's own input schema. */
const parse = (procedure: string, body: string, fixed?: Record<string, string | number | boolean>) =>
  parseStaffForm(procedure, new URLSearchParams(body), fixed)
const refusal = (answer: ReturnType<typeof parse>) => (answer.ok ? undefined : answer.refusal.posted.errors)

describe('a console form read by its procedure\'s schema (Conform\'s parseWithZod)', () => {
  it('reads ticked boxes under one name as a list of ids, and says what is wrong with it', () => {
    expect(parse('staff.cart.deleteMany', 'ids=4&ids=12')).toEqual({ ok: true, value: { ids: [4, 12] } })
    expect(parse('staff.cart.deleteMany', 'ids=4')).toEqual({ ok: true, value: { ids: [4] } })
    expect(refusal(parse('staff.cart.deleteMany', ''))).toEqual({ ids: 'Select at least one cart' })
    expect(refusal(parse('staff.cart.deleteMany', 'ids=4&ids=x'))).toEqual({ ids: 'id must be a whole number' })
    const refused = parse('staff.cart.deleteMany', 'ids=4&ids=0')
    expect(refused.ok ? undefined : refused.refusal).toEqual({
      status: 400,
      posted: { values: {}, lists: { ids: ['4', '0'] }, errors: { ids: 'id must be positive' } },
    })
  })

  it('reads a number, with the schema\'s own sentence for one that is not', () => {
    expect(parse('staff.rental.setFleet', 'cartType=4-seater&carts=7')).toMatchObject({ ok: true, value: { carts: 7 } })
    expect(refusal(parse('staff.rental.setFleet', 'cartType=4-seater&carts=-1'))).toEqual({ carts: 'Carts cannot be negative' })
    expect(refusal(parse('staff.rental.setFleet', 'cartType=4-seater&carts=seven'))).toEqual({ carts: 'Carts must be a whole number' })
  })

  it('reads a ticked box as true, one left unticked as false, and leaves an optional one out', () => {
    expect(parse('staff.settings.save', 'requireSecondStep=on')).toEqual({ ok: true, value: { requireSecondStep: true } })
    expect(parse('staff.accounts.setDisabled', 'username=sam')).toEqual({ ok: true, value: { username: 'sam', disabled: false } })
    // A button's own choice is set over what was posted.
    expect(parse('staff.accounts.setDisabled', 'username=sam&disabled=false', { disabled: true })).toEqual({ ok: true, value: { username: 'sam', disabled: true } })
    expect(parse('staff.cart.saveMany', 'ids=3', { status: 'hold' })).toEqual({ ok: true, value: { ids: [3], status: 'hold' } })
    expect(refusal(parse('staff.settings.save', 'requireSecondStep=maybe'))).toEqual({ requireSecondStep: 'requireSecondStep must be true or false' })
  })

  it('reads an empty choice as null where the schema allows it, and a chosen one as its number', () => {
    expect(parse('staff.lead.assign', 'ownerId=', { id: 5 })).toEqual({ ok: true, value: { id: 5, ownerId: null } })
    expect(parse('staff.lead.assign', 'ownerId=3', { id: 5 })).toEqual({ ok: true, value: { id: 5, ownerId: 3 } })
  })

  it('reads a date as the schema takes it, and refuses one that is not a date with its sentence', () => {
    const today = newJerseyToday()
    expect(parse('staff.rental.change', `cartType=4-seater&plan=daily&startDate=${today}`, { id: 9 })).toEqual({
      ok: true,
      value: { id: 9, cartType: '4-seater', plan: 'daily', startDate: today },
    })
    expect(refusal(parse('staff.rental.change', 'cartType=4-seater&plan=daily&startDate=July+4', { id: 9 }))).toEqual({ startDate: 'Enter a date, like 2026-07-04' })
    // A due time the schema turns into a Date reaches the procedure as it takes it: as typed.
    expect(parse('staff.task.create', 'dueAt=2099-01-05T10:00&note=Call+her', { leadId: 3 })).toEqual({
      ok: true,
      value: { leadId: 3, dueAt: '2099-01-05T10:00', note: 'Call her' },
    })
    expect(refusal(parse('staff.task.create', 'dueAt=someday&note=Call+her', { leadId: 3 }))).toEqual({ dueAt: 'Enter the due date and time, like 2026-12-08 10:00' })
  })

  it('reads a form by a page\'s own schema the same way, for what no procedure takes', () => {
    // The cart form's key: the address's id and the version the form was read at, numbers; an empty version left out.
    expect(parseStaffForm(savedCartKey, new URLSearchParams('version=7&title=Tempo'), { id: '12' })).toEqual({ ok: true, value: { id: 12, version: 7 } })
    expect(parseStaffForm(savedCartKey, new URLSearchParams('version='))).toEqual({ ok: true, value: {} })
    expect(refusal(parseStaffForm(savedCartKey, new URLSearchParams('version=seven')))).toEqual({ version: 'version must be a whole number' })
    const move = z.object({ id: z.int(), place: z.optional(z.int('Give the place as a whole number')) })
    expect(parseStaffForm(move, new URLSearchParams('id=4&place=2'))).toEqual({ ok: true, value: { id: 4, place: 2 } })
    expect(refusal(parseStaffForm(move, new URLSearchParams('id=4&place=first')))).toEqual({ place: 'Give the place as a whole number' })
  })

  it('refuses a procedure without an input to read a form against', () => {
    expect(() => parse('staff.me', '')).toThrow('staff.me takes no input')
  })
})
