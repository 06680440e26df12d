import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { geoContains, geoPath, geoTransverseMercator, type GeoProjection } from 'd3-geo'
import { feature, merge } from 'topojson-client'
import type { GeometryCollection, MultiPolygon, Polygon, Topology } from 'topojson-specification'
import { business } from '../../domain/business.ts'
import { counties } from '../../domain/counties.ts'
import { slugify } from '../../domain/slug.ts'

/**
 * The home page's New Jersey map (docs/PRODUCT.md, "Home"): the 21 counties from the public census
 * geometry in `us-atlas`, projected at build time into a small SVG coordinate space, with the
 * showrooms pinned. Pure: reads the package's TopoJSON and returns plain data; the Vite plugin
 * serves it as `virtual:nj-map` and `host/components/nj-map.tsx` draws it.
 */
export interface NjMap {
  /** "0 0 W H" */
  viewBox: string
  width: number
  height: number
  counties: NjMapCounty[]
  pins: NjMapPin[]
  /** The state outline (all counties merged), for a heavier border stroke. */
  outline: string
  /**
   * The sizes the labels were placed with, in viewBox units: the drawing uses these, so what
   * is drawn is what the build kept apart.
   */
  sizes: { countyLabel: number; pinLabel: number; pinHead: number }
}

export interface NjMapCounty {
  /** The county's value in `domain/counties.ts`: "cape-may". */
  value: string
  /** Display name without the word County: "Cape May". */
  name: string
  /** SVG path data, coordinates rounded to one decimal. */
  d: string
  /**
   * Where the county's name is centred: inside the county, clear of the other names, the pins
   * and the showroom names, with the text over its own county (or open water) where it fits.
   */
  labelX: number
  labelY: number
}

export interface NjMapPin {
  /** The location id in `domain/business.ts`: "ocean-view". */
  id: string
  /** The showroom's name: "Ocean View". */
  name: string
  /** The showroom's position: the tip of the pin. */
  x: number
  y: number
  /** Where the showroom's name is drawn beside the pin head, and which way it runs. */
  labelX: number
  labelY: number
  labelAnchor: 'start' | 'end'
}

/** New Jersey's state FIPS code: county ids are "34001" ... "34041". */
const NJ_FIPS = '34'
const WIDTH = 400
const PADDING = 10

/**
 * County name size in viewBox units (the map carries it to the drawing, `sizes`). Text width is
 * estimated at `LABEL_CHAR_WIDTH` font sizes per character (generous for a semibold sans-serif).
 */
export const LABEL_FONT_SIZE = 11
const LABEL_CHAR_WIDTH = 0.68
/** Showroom names beside the pins. */
export const PIN_LABEL_FONT_SIZE = 10
/** How far above its tip (the showroom's position) a pin's round head is centred. */
export const PIN_HEAD = 12.5
/** Clear space kept between a county label and other labels or pins. */
const LABEL_GAP = 6

interface CountyProperties {
  name: string
}

export function loadCountiesTopology(): Topology {
  const file = createRequire(import.meta.url).resolve('us-atlas/counties-10m.json')
  return JSON.parse(readFileSync(file, 'utf8')) as Topology
}

/** The 21 New Jersey counties as GeoJSON features (geographic lon/lat), in topology order. */
export function njCountyFeatures(topology: Topology = loadCountiesTopology()) {
  const collection = njCountyCollection(topology)
  return feature<CountyProperties>(topology, collection).features
}

function njCountyCollection(topology: Topology): GeometryCollection<CountyProperties> {
  const all = topology.objects.counties as GeometryCollection<CountyProperties> | undefined
  if (!all || all.type !== 'GeometryCollection') {
    throw new Error('us-atlas/counties-10m.json has no "counties" geometry collection')
  }
  const geometries = all.geometries.filter((g) => String(g.id).startsWith(NJ_FIPS) && String(g.id).length === 5)
  if (geometries.length !== counties.length) {
    throw new Error(
      `Expected ${counties.length} New Jersey counties (state FIPS ${NJ_FIPS}) in us-atlas, found ${geometries.length}`,
    )
  }
  return { type: 'GeometryCollection', geometries }
}

export function buildNjMap(topology: Topology = loadCountiesTopology()): NjMap {
  const collection = njCountyCollection(topology)
  const features = feature<CountyProperties>(topology, collection).features
  const outline = merge(
    topology,
    collection.geometries.filter(
      (g): g is Polygon<CountyProperties> | MultiPolygon<CountyProperties> =>
        g.type === 'Polygon' || g.type === 'MultiPolygon',
    ),
  )

  const byValue = new Map(counties.map((county) => [county.value as string, county]))
  const seen = new Set<string>()

  // Transverse Mercator on the New Jersey State Plane's central meridian (74°30' W): north up,
  // true shapes, and a state that is taller than wide.
  const projection: GeoProjection = geoTransverseMercator().rotate([74.5, 0]).fitWidth(WIDTH - 2 * PADDING, outline)
  const [[, y0], [, y1]] = geoPath(projection).bounds(outline)
  const height = Math.ceil(y1 - y0) + 2 * PADDING
  projection.fitExtent(
    [
      [PADDING, PADDING],
      [WIDTH - PADDING, height - PADDING],
    ],
    outline,
  )
  const path = geoPath(projection).digits(1)

  const mapped = features.map((f) => {
    const name = f.properties.name
    const value = slugify(name)
    const county = byValue.get(value)
    if (!county) {
      throw new Error(`us-atlas county "${name}" (${String(f.id)}) does not match a county in domain/counties.ts`)
    }
    if (seen.has(value)) throw new Error(`us-atlas has county "${name}" twice`)
    seen.add(value)
    const d = path(f)
    if (!d) throw new Error(`County "${name}" projected to an empty path`)
    const rings = projectedRings(f.geometry, projection)
    const [labelX, labelY] = interiorPoint(rings)
    return { value: county.value, name: county.name, d, labelX, labelY, label: county.name, rings }
  })

  const pins: NjMapPin[] = []
  const pinObstacles: Box[] = []
  for (const location of business.locations) {
    if (!location.geo) continue
    const point = projection([location.geo.longitude, location.geo.latitude])
    if (!point) throw new Error(`Showroom ${location.id} could not be projected`)
    const x = round(point[0])
    const y = round(point[1])
    pinObstacles.push(pinBox(x, y))
    pins.push({ id: location.id, name: location.name, x, y, labelX: x, labelY: y, labelAnchor: 'start' })
  }
  // Showroom names beside their pins: to the right (the ocean side) unless that leaves the map
  // or lands on another pin or showroom name.
  for (const pin of pins) {
    const options = [
      { labelX: pin.x + 9, labelY: round(pin.y - PIN_HEAD), labelAnchor: 'start' as const },
      { labelX: pin.x - 9, labelY: round(pin.y - PIN_HEAD), labelAnchor: 'end' as const },
    ]
    const scored = options.map((option) => {
      const box = textBox(option.labelX, option.labelY, pin.name, PIN_LABEL_FONT_SIZE, option.labelAnchor)
      const offMap = box.x0 < 0 || box.x1 > WIDTH ? 1e6 : 0
      const overlap = pinObstacles.reduce((sum, other) => sum + overlapArea(box, other), 0)
      return { option, box, cost: offMap + overlap }
    })
    const chosen = scored.reduce((best, next) => (next.cost < best.cost ? next : best))
    Object.assign(pin, chosen.option)
    pinObstacles.push(chosen.box)
  }

  placeCountyLabels(mapped, pinObstacles, WIDTH, height)

  const order = new Map(counties.map((county, i) => [county.value as string, i]))
  mapped.sort((a, b) => (order.get(a.value) ?? 0) - (order.get(b.value) ?? 0))

  const outlineD = path(outline)
  if (!outlineD) throw new Error('The New Jersey outline projected to an empty path')

  return {
    viewBox: `0 0 ${WIDTH} ${height}`,
    width: WIDTH,
    height,
    counties: mapped.map(({ value, name, d, labelX, labelY }) => ({
      value,
      name,
      d,
      labelX: round(labelX),
      labelY: round(labelY),
    })),
    pins,
    outline: outlineD,
    sizes: { countyLabel: LABEL_FONT_SIZE, pinLabel: PIN_LABEL_FONT_SIZE, pinHead: PIN_HEAD },
  }
}

/** The county feature containing a geographic point, for checking where the pins land. */
export function countyAt(longitude: number, latitude: number, topology?: Topology): string | undefined {
  const found = njCountyFeatures(topology).find((f) => geoContains(f, [longitude, latitude]))
  return found ? slugify(found.properties.name) : undefined
}

export type Point = [number, number]
export type Ring = Point[]

function round(n: number): number {
  return Math.round(n * 10) / 10
}

/** The outer rings of a county, in projected coordinates (holes are ignored: NJ has none). */
function projectedRings(geometry: GeoJSON.Geometry, projection: GeoProjection): Ring[] {
  const polygons =
    geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : []
  return polygons.map((polygon) =>
    (polygon[0] ?? []).flatMap((position) => {
      const p = projection([position[0] ?? 0, position[1] ?? 0])
      return p ? [p] : []
    }),
  )
}

/**
 * The pole of inaccessibility of the largest ring (the interior point farthest from the edge),
 * found on a fine grid: centroids of curved counties can fall outside them or on a border.
 */
function interiorPoint(rings: Ring[]): Point {
  const ring = rings.reduce<Ring>((best, r) => (Math.abs(ringArea(r)) > Math.abs(ringArea(best)) ? r : best), rings[0] ?? [])
  const xs = ring.map((p) => p[0])
  const ys = ring.map((p) => p[1])
  const minX = Math.min(...xs)
  const maxX = Math.max(...xs)
  const minY = Math.min(...ys)
  const maxY = Math.max(...ys)
  const step = Math.max(0.5, Math.min(maxX - minX, maxY - minY) / 40)
  let best: Point = [(minX + maxX) / 2, (minY + maxY) / 2]
  let bestScore = -Infinity
  for (let y = minY + step / 2; y < maxY; y += step) {
    for (let x = minX + step / 2; x < maxX; x += step) {
      if (!insideRing([x, y], ring)) continue
      const score = edgeDistance([x, y], ring)
      if (score > bestScore) {
        bestScore = score
        best = [x, y]
      }
    }
  }
  return best
}

function ringArea(ring: Ring): number {
  let sum = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!
    const b = ring[j]!
    sum += (b[0] - a[0]) * (b[1] + a[1])
  }
  return sum / 2
}

/** Whether a point is inside a ring (even-odd rule), in the map's flat coordinates. */
export function insideRing([x, y]: Point, ring: Ring): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!
    const [xj, yj] = ring[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/** How far a point is from the nearest edge of a ring. */
export function edgeDistance([x, y]: Point, ring: Ring): number {
  let min = Infinity
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [ax, ay] = ring[j]!
    const [bx, by] = ring[i]!
    const dx = bx - ax
    const dy = by - ay
    const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    min = Math.min(min, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)))
  }
  return min
}

interface Box {
  x0: number
  x1: number
  y0: number
  y1: number
}

interface LabelCandidate {
  /** The text drawn: the county's name. */
  label: string
  labelX: number
  labelY: number
  rings: Ring[]
}

function textBox(x: number, y: number, text: string, size: number, anchor: 'start' | 'middle' | 'end'): Box {
  const w = text.length * LABEL_CHAR_WIDTH * size
  const x0 = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2
  return { x0, x1: x0 + w, y0: y - size / 2, y1: y + size / 2 }
}

function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)
  return w > 0 && h > 0 ? w * h : 0
}

/** The area a pin marker covers: a teardrop about 14 wide standing on its point. */
function pinBox(x: number, y: number): Box {
  return { x0: x - 8, x1: x + 8, y0: y - 21, y1: y + 1 }
}

/**
 * Places each county label where its text box lies as much as possible inside its own county,
 * never on another county's label, a pin or a pin's name: over open water is acceptable, over a
 * neighbouring county is not. Smallest counties choose first.
 */
function placeCountyLabels(items: LabelCandidate[], obstacles: Box[], width: number, height: number): void {
  const placed: Box[] = [...obstacles]
  const sorted = [...items].sort((a, b) => totalArea(a.rings) - totalArea(b.rings))
  for (const item of sorted) {
    const [poleX, poleY] = [item.labelX, item.labelY]
    const own = item.rings
    const probe = textBox(0, 0, item.label, LABEL_FONT_SIZE, 'middle')
    const halfW = (probe.x1 - probe.x0) / 2
    const xs = own.flat().map((p) => p[0])
    const ys = own.flat().map((p) => p[1])
    // Only neighbours whose extent reaches the area this label can cover.
    const reach: Box = {
      x0: Math.min(...xs) - 2 * halfW,
      x1: Math.max(...xs) + 2 * halfW,
      y0: Math.min(...ys) - LABEL_FONT_SIZE,
      y1: Math.max(...ys) + LABEL_FONT_SIZE,
    }
    const others = items
      .filter((other) => other !== item)
      .flatMap((other) => other.rings)
      .filter((ring) => overlapArea(ringBox(ring), reach) > 0)
    const minX = Math.max(Math.min(...xs) - halfW, halfW + 1)
    const maxX = Math.min(Math.max(...xs) + halfW, width - halfW - 1)
    const minY = Math.max(Math.min(...ys), LABEL_FONT_SIZE)
    const maxY = Math.min(Math.max(...ys), height - LABEL_FONT_SIZE)
    const score = (x: number, y: number): number => {
      const centre: Point = [x, y]
      if (!own.some((ring) => insideRing(centre, ring))) return -Infinity
      const box = textBox(x, y, item.label, LABEL_FONT_SIZE, 'middle')
      let total = 0
      // Sample the text box: inside its own county is good, open water is tolerable,
      // a neighbouring county reads as the wrong label.
      for (let i = 0; i <= 12; i++) {
        for (let j = 0; j <= 2; j++) {
          const sample: Point = [box.x0 + ((box.x1 - box.x0) * i) / 12, box.y0 + ((box.y1 - box.y0) * j) / 2]
          if (own.some((ring) => insideRing(sample, ring))) total += 1
          else if (others.some((ring) => insideRing(sample, ring))) total -= 6
          else total -= 0.5
        }
      }
      for (const other of placed) total -= overlapArea(box, pad(other, LABEL_GAP)) * 2
      total += Math.min(own.reduce((d, ring) => Math.min(d, edgeDistance(centre, ring)), Infinity), 8) * 0.5
      total -= Math.hypot(x - poleX, y - poleY) * 0.05
      return total
    }
    // A coarse search over the county, then a fine one around the best few spots.
    const coarse: { x: number; y: number; score: number }[] = []
    for (let y = minY; y <= maxY; y += 4) {
      for (let x = minX; x <= maxX; x += 4) coarse.push({ x, y, score: score(x, y) })
    }
    coarse.sort((a, b) => b.score - a.score)
    let best = { x: poleX, y: poleY, score: score(poleX, poleY) }
    for (const seed of coarse.slice(0, 5)) {
      for (let dy = -3; dy <= 3; dy += 1) {
        for (let dx = -3; dx <= 3; dx += 1) {
          const x = seed.x + dx
          const y = seed.y + dy
          if (x < minX || x > maxX || y < minY || y > maxY) continue
          const value = score(x, y)
          if (value > best.score) best = { x, y, score: value }
        }
      }
    }
    item.labelX = best.x
    item.labelY = best.y
    placed.push(textBox(best.x, best.y, item.label, LABEL_FONT_SIZE, 'middle'))
  }
}

function ringBox(ring: Ring): Box {
  const xs = ring.map((p) => p[0])
  const ys = ring.map((p) => p[1])
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) }
}

function pad(box: Box, by: number): Box {
  return { x0: box.x0 - by, x1: box.x1 + by, y0: box.y0 - by, y1: box.y1 + by }
}

function totalArea(rings: Ring[]): number {
  return rings.reduce((sum, ring) => sum + Math.abs(ringArea(ring)), 0)
}
