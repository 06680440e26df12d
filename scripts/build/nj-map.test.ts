import { describe, expect, it } from 'vitest'
import type { GeometryCollection, Topology } from 'topojson-specification'
import { business } from '../../domain/business.ts'
import { countyValues } from '../../domain/counties.ts'
import { buildNjMap, countyAt, edgeDistance, insideRing, loadCountiesTopology, LABEL_FONT_SIZE, type Point } from './nj-map.ts'

const map = buildNjMap()

/** Where each showroom really is (its town's county). */
const showroomCounty: Record<string, string> = {
  'ocean-view': 'cape-may',
  bayville: 'ocean',
  waretown: 'ocean',
  pleasantville: 'atlantic',
}

/** The rings of an SVG path as d3-geo writes it: absolute M, L and Z commands. */
function rings(d: string): Point[][] {
  return d
    .split('M')
    .filter(Boolean)
    .map((part) =>
      [...part.matchAll(/(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/g)].map((m) => [Number(m[1]), Number(m[2])] as Point),
    )
}

function countyShape(value: string): Point[][] {
  const county = map.counties.find((c) => c.value === value)
  if (!county) throw new Error(`no county ${value}`)
  return rings(county.d)
}

describe('the flat geometry the map places labels with', () => {
  const square: Point[] = [[0, 0], [10, 0], [10, 10], [0, 10]]
  it.each([
    [[5, 5], true, 5],
    [[1, 9], true, 1],
    [[11, 5], false, 1],
    [[-3, -4], false, 5],
  ] as [Point, boolean, number][])('%j: inside %s, %d from the edge', (point, inside, distance) => {
    expect(insideRing(point, square)).toBe(inside)
    expect(edgeDistance(point, square)).toBeCloseTo(distance)
  })
})

describe('buildNjMap', () => {
  it('has the 21 counties of domain/counties.ts, in that order, with their names', () => {
    expect(map.counties.map((c) => c.value)).toEqual([...countyValues])
    expect(map.counties.find((c) => c.value === 'cape-may')?.name).toBe('Cape May')
    for (const county of map.counties) {
      expect(county.d).toMatch(/^M[\d.,LMZ-]+Z$/)
    }
  })

  it('describes its coordinate space consistently', () => {
    expect(map.viewBox).toBe(`0 0 ${map.width} ${map.height}`)
    expect(map.width).toBe(400)
    // New Jersey is taller than wide.
    expect(map.height).toBeGreaterThan(map.width)
    expect(map.outline).toMatch(/^M/)
  })

  it('draws New Jersey north up: Sussex at the top, Cape May at the bottom, Monmouth east of Salem', () => {
    const byValue = new Map(map.counties.map((c) => [c.value, c]))
    const sussex = byValue.get('sussex')!
    const capeMay = byValue.get('cape-may')!
    expect(sussex.labelY).toBeLessThan(map.height / 4)
    expect(capeMay.labelY).toBeGreaterThan((map.height * 3) / 4)
    expect(byValue.get('monmouth')!.labelX).toBeGreaterThan(byValue.get('salem')!.labelX)
  })

  it('keeps every coordinate inside the viewBox, rounded to one decimal', () => {
    for (const d of [...map.counties.map((c) => c.d), map.outline]) {
      expect(d).not.toMatch(/\.\d{2}/)
      for (const ring of rings(d)) {
        for (const [x, y] of ring) {
          expect(x).toBeGreaterThanOrEqual(0)
          expect(x).toBeLessThanOrEqual(map.width)
          expect(y).toBeGreaterThanOrEqual(0)
          expect(y).toBeLessThanOrEqual(map.height)
        }
      }
    }
  })

  it('keeps the path data small', () => {
    const bytes = map.counties.reduce((sum, c) => sum + c.d.length, 0) + map.outline.length
    expect(bytes).toBeLessThan(25_000)
    expect(JSON.stringify(map).length).toBeLessThan(30_000)
  })

  it('puts each label inside its own county and no two labels on top of each other', () => {
    for (const county of map.counties) {
      const centre: Point = [county.labelX, county.labelY]
      expect(countyShape(county.value).some((ring) => insideRing(centre, ring)), county.value).toBe(true)
    }
    const boxes = map.counties.map((c) => {
      const half = (c.name.length * 0.55 * LABEL_FONT_SIZE) / 2
      return { value: c.value, x0: c.labelX - half, x1: c.labelX + half, y0: c.labelY - 5, y1: c.labelY + 5 }
    })
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const overlaps = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
        expect(overlaps, `${a.value} and ${b.value}`).toBe(false)
      }
    }
  })

  it('pins the four showrooms that have a position, inside the viewBox', () => {
    const withGeo = business.locations.filter((l) => l.geo)
    expect(withGeo).toHaveLength(4)
    expect(map.pins.map((p) => p.id)).toEqual(withGeo.map((l) => l.id))
    expect(map.pins.map((p) => p.name)).toEqual(['Ocean View', 'Bayville', 'Waretown', 'Pleasantville'])
    expect(map.pins.some((p) => p.id === 'new-jersey')).toBe(false)
    for (const pin of map.pins) {
      expect(pin.x).toBeGreaterThan(0)
      expect(pin.x).toBeLessThan(map.width)
      expect(pin.y).toBeGreaterThan(0)
      expect(pin.y).toBeLessThan(map.height)
    }
  })

  it("places each showroom's coordinates in its real county", () => {
    for (const location of business.locations) {
      if (!location.geo) continue
      expect(countyAt(location.geo.longitude, location.geo.latitude), location.id).toBe(showroomCounty[location.id])
    }
  })

  it('draws each pin inside (or within a few units of) its county on the map', () => {
    for (const pin of map.pins) {
      const shape = countyShape(showroomCounty[pin.id]!)
      const point: Point = [pin.x, pin.y]
      const near = shape.some((ring) => insideRing(point, ring) || edgeDistance(point, ring) < 4)
      expect(near, pin.id).toBe(true)
    }
  })

  it('keeps showroom names beside their pins and on the map', () => {
    for (const pin of map.pins) {
      expect(Math.abs(pin.labelX - pin.x)).toBeLessThan(15)
      expect(pin.labelY).toBeLessThan(pin.y)
      expect(['start', 'end']).toContain(pin.labelAnchor)
      expect(pin.labelX).toBeGreaterThan(0)
      expect(pin.labelX).toBeLessThan(map.width)
    }
  })

  it('refuses a topology without exactly 21 New Jersey counties', () => {
    const topology = loadCountiesTopology()
    const counties = topology.objects.counties as GeometryCollection
    const missing: Topology = {
      ...topology,
      objects: {
        ...topology.objects,
        counties: { ...counties, geometries: counties.geometries.filter((g) => g.id !== '34009') },
      },
    }
    expect(() => buildNjMap(missing)).toThrow(/Expected 21 New Jersey counties .* found 20/)
  })

  it('refuses a county name that is not in domain/counties.ts', () => {
    const topology = loadCountiesTopology()
    const counties = topology.objects.counties as GeometryCollection<{ name: string }>
    const renamed: Topology = {
      ...topology,
      objects: {
        ...topology.objects,
        counties: {
          ...counties,
          geometries: counties.geometries.map((g) =>
            g.id === '34009' ? { ...g, properties: { name: 'Capemay' } } : g,
          ),
        },
      },
    }
    expect(() => buildNjMap(renamed)).toThrow(/"Capemay".*domain\/counties\.ts/)
  })
})
