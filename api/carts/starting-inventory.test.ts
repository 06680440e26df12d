import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bodyColourNamed, manufacturerPages } from '../../domain/catalogue.ts'
import { cartPicture, modelDrawingPath, photosComingPicture } from '../../domain/cart-pictures.ts'
import { derivedFacts } from '../../domain/cart-facts.ts'
import { dealershipSourceFor } from '../../domain/dealership-sources.ts'
import { alternativeSlug, slugify } from '../../domain/slug.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import { startingInventory } from './starting-inventory.ts'

/** The starting inventory (domain/starting-inventory.csv, PRODUCT.md "The catalogue"). */
const publicDir = fileURLToPath(new URL('../../host/public', import.meta.url))
const carts = startingInventory().map((row) => row.record)

describe('the starting inventory', () => {
  it('backs the site\'s "100+ carts in stock": at least 100 available carts, some featured, each with a real description and price', () => {
    expect(carts.length).toBeGreaterThanOrEqual(100)
    expect(carts.every((c) => c.status === 'available' && c.condition === 'new')).toBe(true)
    expect(carts.filter((c) => c.featured).length).toBeGreaterThanOrEqual(6)
    for (const cart of carts) {
      expect(cart.description.length, cart.title).toBeGreaterThan(80)
      expect(cart.description.length, cart.title).toBeLessThanOrEqual(400)
      expect(cart.price).toBeGreaterThan(5000)
      expect(cart.price).toBeLessThan(30000)
    }
  })

  it('spans the Evolution and Denago lines in several colours, each cart with its own stock number', () => {
    expect(new Set(carts.map((c) => specificationsFor(c.title).brand))).toEqual(new Set(['Evolution', 'Denago']))
    expect(new Set(carts.map((c) => c.color)).size).toBeGreaterThanOrEqual(8)
    for (const cart of carts) expect(bodyColourNamed(cart.color), `${cart.title}: ${cart.color}`).toBeDefined()
    const stockNumbers = carts.map((c) => c.stockNumber)
    expect(stockNumbers.every(Boolean)).toBe(true)
    expect(new Set(stockNumbers).size).toBe(carts.length)
  })

  it('gives every street-legal cart a VIN (valid, since the file imports) and no other cart one', () => {
    const streetLegal = carts.filter((c) => c.streetLegal)
    expect(streetLegal.length).toBeGreaterThan(0)
    expect(streetLegal.every((c) => c.vin)).toBe(true)
    expect(carts.filter((c) => !c.streetLegal).every((c) => !c.vin)).toBe(true)
    expect(new Set(streetLegal.map((c) => c.vin)).size).toBe(streetLegal.length)
  })

  it('leaves the specifications to the titles, as before', () => {
    for (const cart of carts) {
      expect([cart.year, cart.make, cart.model, cart.seats, cart.battery], cart.title).toEqual([null, null, null, null, null])
      expect(derivedFacts(cart.title).make, cart.title).not.toBeNull()
    }
  })

  it('has a drawing of every catalogue model and a "photos coming" picture, each with a PNG, for carts without photos', () => {
    const pictures = [...Object.keys(manufacturerPages).map(modelDrawingPath), photosComingPicture]
    expect(pictures).toHaveLength(Object.keys(manufacturerPages).length + 1)
    for (const picture of pictures) {
      expect(existsSync(`${publicDir}${picture}`), picture).toBe(true)
      expect(existsSync(`${publicDir}${picture.replace(/\.svg$/, '.png')}`), picture).toBe(true)
    }
    expect(cartPicture({ imageUrl: null, title: 'Lot special', make: 'Evolution', model: 'D6 Max GT4' })).toBe(modelDrawingPath('Evolution D6 Max GT4'))
    expect(cartPicture({ imageUrl: null, title: 'A cart we cannot name' })).toBe(photosComingPicture)
  })

  it('gives every cart a local drawn picture with a PNG beside it, named after its title', () => {
    for (const { title, imageUrl: stored } of carts) {
      const imageUrl = stored ?? ''
      expect(imageUrl).toBe(`/images/carts/${slugify(title)}.svg`)
      expect(existsSync(`${publicDir}${imageUrl}`), imageUrl).toBe(true)
      expect(existsSync(`${publicDir}${imageUrl.replace(/\.svg$/, '.png')}`), imageUrl).toBe(true)
    }
  })

  it('links every cart to its manufacturer page, has no two titles with one slug, and keeps a title whose slug readings differ', () => {
    for (const { title } of carts) expect(dealershipSourceFor(title), title).toBeDefined()
    const slugs = carts.map(({ title }) => slugify(title))
    expect(new Set(slugs).size).toBe(slugs.length)
    expect(carts.filter(({ title }) => slugify(title) !== alternativeSlug(title)).map((c) => c.title)).toContain('2025 Evolution D5 Maverick 2+2')
  })

  it('paints neighbours in the list in different colours', () => {
    const same = carts.slice(1).filter((cart, i) => cart.color === carts[i]!.color)
    expect(same.map((c) => c.title)).toEqual([])
  })
})
