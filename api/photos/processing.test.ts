import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { photoFormats, photoLimits, photoWidths } from '../../domain/photos.ts'
import { createPhotoQueue, photoEncoderSettings, photoMessages, PhotoRejectedError, processPhoto, usePhotoEncoders, widthsFor } from './processing.ts'

// The encoders at the real settings: other test files encode with the least effort (tests/support/lighter-work.ts).
beforeAll(() => usePhotoEncoders(photoEncoderSettings))

/** A camera-like JPEG: GPS position, camera make and model, and "turn me a quarter" (orientation 6). */
async function phonePhoto(width = 1800, height = 1200): Promise<Buffer> {
  // Green with a red block in the top-left corner, so orientation can be checked from the pixels.
  const base = await sharp({ create: { width, height, channels: 3, background: '#2f7d4f' } })
    .composite([{ input: { create: { width: Math.round(width / 4), height: Math.round(height / 4), channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .png()
    .toBuffer()
  return sharp(base)
    .withExif({
      IFD0: { Make: 'TestPhone', Model: 'Lot Camera 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 12/1 30/1', GPSLongitudeRef: 'W', GPSLongitude: '74/1 0/1 15/1' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer()
}

/** A PNG of a few dozen bytes whose header declares `width` × `height` pixels. */
function declaredPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([length, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

async function rejection(input: Buffer): Promise<PhotoRejectedError> {
  const error = await processPhoto(input).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PhotoRejectedError)
  return error as PhotoRejectedError
}

describe('processing a photo', () => {
  it('stores AVIF, WebP and JPEG at every standard width the upload reaches, upright, with no metadata at all', async () => {
    const input = await phonePhoto()
    const before = await sharp(input).metadata()
    // The test photo really carries what must go: a GPS block (tag 0x8825), the camera, the turn.
    expect(before.orientation).toBe(6)
    expect(before.exif?.includes(Buffer.from('TestPhone'))).toBe(true)
    expect(before.exif?.indexOf(Buffer.from([0x25, 0x88]))).toBeGreaterThan(0)

    const photo = await processPhoto(input)
    // Orientation 6 is a quarter turn: the 1800 × 1200 sensor image is a 1200 × 1800 portrait.
    expect([photo.width, photo.height]).toEqual([1200, 1800])
    expect(photo.widths).toEqual([240, 480, 800, 1200])
    expect(photo.files.map((f) => `${f.format}@${f.width}`).sort()).toEqual(
      photo.widths.flatMap((w) => photoFormats.map((f) => `${f}@${w}`)).sort(),
    )
    for (const file of photo.files) {
      const meta = await sharp(file.bytes).metadata()
      expect(meta.format).toBe(file.format === 'avif' ? 'heif' : file.format)
      expect([meta.width, meta.height]).toEqual([file.width, file.height])
      expect(file.height).toBe(file.width * 1.5)
      expect(meta.exif, `${file.format}@${file.width} EXIF`).toBeUndefined()
      expect(meta.xmp).toBeUndefined()
      expect(meta.iptc).toBeUndefined()
      expect(meta.orientation).toBeUndefined()
      expect(file.bytes.includes(Buffer.from('TestPhone'))).toBe(false)
    }
    // The red corner was top-left on the sensor; a quarter turn clockwise puts it top-right.
    const smallest = photo.files.find((f) => f.format === 'jpeg' && f.width === 240)!
    const { data, info } = await sharp(smallest.bytes).raw().toBuffer({ resolveWithObject: true })
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
    expect(pixel(info.width - 10, 10)[0]).toBeGreaterThan(200)
    expect(pixel(10, 10)[0]).toBeLessThan(100)
  })

  it('names the files by the content: the same upload gets the same key, another gets another', async () => {
    const a = await phonePhoto(900, 600)
    const b = await phonePhoto(900, 602)
    const [first, again, other] = await Promise.all([processPhoto(a), processPhoto(a), processPhoto(b)])
    expect(first.key).toMatch(/^[0-9a-f]{32}$/)
    expect(again.key).toBe(first.key)
    expect(other.key).not.toBe(first.key)
  })

  it('never enlarges: a small photo is stored at its own width, PNG with transparency on white', async () => {
    const png = await sharp({ create: { width: 200, height: 150, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()
    const photo = await processPhoto(png)
    expect(photo.widths).toEqual([200])
    const jpeg = photo.files.find((f) => f.format === 'jpeg')!
    const { data } = await sharp(jpeg.bytes).raw().toBuffer({ resolveWithObject: true })
    expect(data[0]).toBeGreaterThan(240)
    expect(widthsFor(5000)).toEqual([...photoWidths])
    expect(widthsFor(1000)).toEqual([240, 480, 800])
  })

  it('takes WebP and AVIF uploads too', async () => {
    for (const format of ['webp', 'avif'] as const) {
      const input = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } })[format]().toBuffer()
      const photo = await processPhoto(input)
      expect(photo.widths).toEqual([240, 480])
    }
  })
})

describe('refusing what is not a photo', () => {
  it('refuses text, an empty file and a truncated JPEG with a sentence, not a crash', async () => {
    expect((await rejection(Buffer.from('name,price\nCart,100\n'))).message).toBe(photoMessages.notImage)
    expect((await rejection(Buffer.alloc(0))).message).toBe(photoMessages.empty)
    const jpeg = await phonePhoto(800, 600)
    const cut = await rejection(jpeg.subarray(0, Math.floor(jpeg.length / 2)))
    expect([photoMessages.damaged, photoMessages.notImage]).toContain(cut.message)
  })

  it('refuses formats other than JPEG, PNG, WebP and AVIF, naming the format', async () => {
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } }).gif().toBuffer()
    expect((await rejection(gif)).message).toBe(photoMessages.unsupported('gif'))
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')
    expect((await rejection(svg)).message).toBe(photoMessages.unsupported('svg'))
  })

  it('refuses more than 25 MB before looking inside', async () => {
    const error = await rejection(Buffer.alloc(photoLimits.uploadBytes + 1, 0xff))
    expect(error.message).toBe(photoMessages.tooLarge)
    expect(error.status).toBe(413)
  })

  it('refuses a decompression bomb: a tiny file declaring 100,000 × 100,000 pixels is never decoded', async () => {
    const bomb = declaredPng(100_000, 100_000)
    expect(bomb.length).toBeLessThan(1000)
    const error = await rejection(bomb)
    expect(error.message).toBe(photoMessages.tooManyPixels(100_000, 100_000))
    expect(error.status).toBe(413)
  })
})

describe('the photo queue', () => {
  it('runs one photo at a time and hands the place on in order', async () => {
    const queue = createPhotoQueue(1)
    // Each photo's work holds until the test lets it finish.
    const started: number[] = []
    const finish = new Map<number, () => void>()
    const done = [1, 2, 3, 4].map((n) =>
      queue.run(
        () =>
          new Promise<number>((resolve) => {
            started.push(n)
            finish.set(n, () => resolve(n))
          }),
      ),
    )
    for (const n of [1, 2, 3, 4]) {
      // Photo n has the place; the ones after it wait, however long it takes.
      await vi.waitFor(() => expect(started).toEqual([1, 2, 3, 4].slice(0, n)))
      expect(queue.waiting).toBe(4 - n)
      finish.get(n)!()
      expect(await done[n - 1]).toBe(n)
    }
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(queue.run(async () => 'next')).resolves.toBe('next')
  })
})
