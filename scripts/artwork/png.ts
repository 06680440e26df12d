/**
 * Shrinks Chromium's screenshots: flat artwork needs few colours, so the RGB(A) PNG is
 * re-encoded as an 8-bit indexed PNG. Colours are kept exactly when there are at most 256;
 * otherwise the most used colours are kept and the rest (mostly anti-aliased edges and text)
 * map to their nearest kept colour. Only what Chromium writes is read: 8-bit, non-interlaced
 * RGB or RGBA.
 */
import { deflateSync, inflateSync, crc32 } from 'node:zlib'

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])

interface Image {
  width: number
  height: number
  /** 0xRRGGBB per pixel. */
  pixels: Uint32Array
}

export function optimisePng(png: Buffer): Buffer {
  const image = decode(png)
  const indexed = encodeIndexed(image)
  return indexed.length < png.length ? indexed : png
}

function decode(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const idat: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const data = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      const colourType = data[9]
      if (data[8] !== 8 || data[12] !== 0 || (colourType !== 2 && colourType !== 6)) {
        throw new Error('unsupported PNG layout')
      }
      channels = colourType === 6 ? 4 : 3
    } else if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const pixels = new Uint32Array(width * height)
  let previous = new Uint8Array(stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const line = new Uint8Array(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)))
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0
      const b = previous[i]!
      const c = i >= channels ? previous[i - channels]! : 0
      line[i] = (line[i]! + predict(filter, a, b, c)) & 255
    }
    for (let x = 0; x < width; x++) {
      const p = x * channels
      pixels[y * width + x] = (line[p]! << 16) | (line[p + 1]! << 8) | line[p + 2]!
    }
    previous = line
  }
  return { width, height, pixels }
}

function predict(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0: return 0
    case 1: return a
    case 2: return b
    case 3: return (a + b) >> 1
    case 4: {
      const p = a + b - c
      const pa = Math.abs(p - a)
      const pb = Math.abs(p - b)
      const pc = Math.abs(p - c)
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }
    default: throw new Error(`bad PNG filter ${filter}`)
  }
}

function choosePalette(pixels: Uint32Array): { palette: number[]; index: Map<number, number> } {
  const counts = new Map<number, number>()
  for (const p of pixels) counts.set(p, (counts.get(p) ?? 0) + 1)
  const palette = [...counts.entries()].sort((x, y) => y[1] - x[1]).slice(0, 256).map(([c]) => c)
  const index = new Map<number, number>()
  palette.forEach((c, i) => index.set(c, i))
  for (const colour of counts.keys()) {
    if (index.has(colour)) continue
    let best = 0
    let bestDistance = Infinity
    palette.forEach((c, i) => {
      const dr = ((c >> 16) & 255) - ((colour >> 16) & 255)
      const dg = ((c >> 8) & 255) - ((colour >> 8) & 255)
      const db = (c & 255) - (colour & 255)
      const d = 3 * dr * dr + 4 * dg * dg + 2 * db * db
      if (d < bestDistance) [best, bestDistance] = [i, d]
    })
    index.set(colour, best)
  }
  return { palette, index }
}

function encodeIndexed({ width, height, pixels }: Image): Buffer {
  const { palette, index } = choosePalette(pixels)
  const raw = Buffer.alloc(height * (width + 1))
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1)
    raw[row] = 0
    for (let x = 0; x < width; x++) raw[row + 1 + x] = index.get(pixels[y * width + x]!)!
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 3, 0, 0, 0], 8)
  const plte = Buffer.alloc(palette.length * 3)
  palette.forEach((c, i) => plte.set([(c >> 16) & 255, (c >> 8) & 255, c & 255], i * 3))
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}
