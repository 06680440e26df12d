import { createHash } from 'node:crypto'
import type { AvifOptions, JpegOptions, Metadata, OutputInfo, Sharp, SharpConstructor, WebpOptions } from 'sharp'
import { type PhotoFormat, photoFormats, photoLimits, photoWidths } from '../../domain/photos.ts'

/**
 * What an upload becomes (PRODUCT.md, "photos"): turned upright as the camera meant, every piece
 * of metadata removed (GPS position, camera, dates: sharp writes none unless asked), flattened
 * onto white, in sRGB, at each of `photoWidths` no wider than the upload, in AVIF, WebP and JPEG.
 *
 * sharp (libvips) works on libuv's thread pool, never on the event loop, and `processPhoto` runs
 * one photo at a time per process (`photoQueue`), so pages and the API keep answering while staff
 * upload a batch: docs/BENCHMARKS.md measures page latency during a ten-photo upload.
 */

/** Raised for an upload we will not store, with the sentence staff see. */
export class PhotoRejectedError extends Error {
  override name = 'PhotoRejectedError'
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 415,
  ) {
    super(message)
  }
}

export const photoMessages = {
  empty: 'The file is empty. Choose a photo (JPEG, PNG, WebP or AVIF).',
  tooLarge: `The file is larger than ${photoLimits.uploadBytes / 1024 / 1024} MB. Photos up to 25 MB are accepted; phones take them far smaller.`,
  notImage: 'This file is not a photo we can read. Upload a JPEG, PNG, WebP or AVIF image.',
  unsupported: (format: string) => `${format.toUpperCase()} files are not accepted. Upload a JPEG, PNG, WebP or AVIF image.`,
  heic: 'HEIC photos are not accepted. On an iPhone, set Settings > Camera > Formats to Most Compatible, or share the photo as JPEG.',
  damaged: 'This photo could not be read to the end: the file is damaged or was cut short. Upload it again.',
  tooManyPixels: (width: number, height: number) =>
    `This image declares ${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} pixels, more than the ${photoLimits.pixels / 1_000_000} megapixels a photo may have.`,
  place: `The place must be a whole number from 0 (the cover) to ${photoLimits.perCart - 1}.`,
} as const

/** Encoder settings: chosen for size at phone widths (docs/BENCHMARKS.md, "Photos"). */
export const photoEncoderSettings = {
  avif: { quality: 45, effort: 2, chromaSubsampling: '4:2:0' },
  webp: { quality: 72, effort: 4, smartSubsample: true },
  jpeg: { quality: 74, mozjpeg: true, progressive: true },
} as const satisfies EncoderSettings

interface EncoderSettings {
  avif: AvifOptions
  webp: WebpOptions
  jpeg: JpegOptions
}

/** The settings photos are encoded with: `photoEncoderSettings`, but in tests (below). */
let encoderSettings: EncoderSettings = photoEncoderSettings

/**
 * For tests alone (tests/support/lighter-work.ts, a set-up file of the test projects that start
 * servers): photos processed in the test's own process encoded with the least effort. At the
 * real settings a phone photo costs about 3.5 s of CPU here, most of it the effort that makes the
 * files smaller; every file, width and format is still made, from the same decode. The real
 * settings stay tested: this module's own tests put them back, and every server and command a
 * test spawns runs without the set-up (decision 0033).
 */
export function usePhotoEncoders(next: EncoderSettings): void {
  encoderSettings = next
}

const encoders: Record<PhotoFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif(encoderSettings.avif),
  webp: (image) => image.webp(encoderSettings.webp),
  jpeg: (image) => image.jpeg(encoderSettings.jpeg),
}

/** Raised to the file's key: a change of the pipeline is a change of every address. */
const pipelineVersion = 'photos-v1'

export interface PhotoFile {
  format: PhotoFormat
  width: number
  height: number
  bytes: Buffer
}

export interface ProcessedPhoto {
  /** The content hash that names the files: the upload's bytes and the pipeline that made them. */
  key: string
  /** The largest stored size. */
  width: number
  height: number
  widths: number[]
  files: PhotoFile[]
  /** Milliseconds spent decoding and encoding. */
  ms: number
}

/**
 * The key an upload's files are named by, known before any decoding: a photo already stored is
 * recognised without processing it again (an import naming a cart's photos once more).
 */
export function photoKey(input: Buffer): string {
  return createHash('sha256').update(pipelineVersion).update(input).digest('hex').slice(0, 32)
}

const readableFormats = new Set(['jpeg', 'png', 'webp', 'heif'])

/** Checks an upload's header without decoding it: kind, format, declared size. */
export async function inspectUpload(input: Buffer): Promise<{ width: number; height: number; format: string; orientation?: number }> {
  if (input.length === 0) throw new PhotoRejectedError(photoMessages.empty, 400)
  if (input.length > photoLimits.uploadBytes) throw new PhotoRejectedError(photoMessages.tooLarge, 413)
  const sharp = await loadSharp()
  let metadata: Metadata
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata()
  } catch {
    throw new PhotoRejectedError(photoMessages.notImage)
  }
  const format = String(metadata.format ?? '')
  if (!readableFormats.has(format)) throw new PhotoRejectedError(format ? photoMessages.unsupported(format) : photoMessages.notImage)
  // HEIF holds AVIF (AV1) and iPhone HEIC (HEVC); only AVIF is decodable and accepted.
  if (format === 'heif' && metadata.compression !== 'av1') throw new PhotoRejectedError(photoMessages.heic)
  const { width = 0, height = 0 } = metadata
  if (!width || !height) throw new PhotoRejectedError(photoMessages.notImage)
  if (width * height > photoLimits.pixels) throw new PhotoRejectedError(photoMessages.tooManyPixels(width, height), 413)
  return { width, height, format, orientation: metadata.orientation }
}

/** The widths a photo of this width is stored at: every standard width it reaches, at least one. */
export function widthsFor(width: number): number[] {
  const reached = photoWidths.filter((w) => w <= width)
  return reached.length > 0 ? reached : [width]
}

/** Refuses what is not a photo, then makes every stored file. Never throws anything but `PhotoRejectedError` for bad input. */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  const started = performance.now()
  const upload = await inspectUpload(input)
  const sharp = await loadSharp()
  // Orientations 5 to 8 turn the picture a quarter: its upright width is the stored height.
  const uprightWidth = (upload.orientation ?? 1) >= 5 ? upload.height : upload.width
  const largest = Math.max(...widthsFor(uprightWidth))
  const key = photoKey(input)
  let master: { data: Buffer; info: OutputInfo }
  try {
    // One decode: upright (EXIF orientation applied, then dropped), sRGB, no alpha, at the
    // largest stored width; JPEG decodes shrunk on load, so a 48-megapixel photo never sits whole
    // in memory.
    master = await sharp(input, { limitInputPixels: photoLimits.pixels, failOn: 'error', sequentialRead: true })
      .autoOrient()
      .resize({ width: largest, withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true })
  } catch (error) {
    const message = (error as Error).message ?? ''
    if (/pixel limit/i.test(message)) throw new PhotoRejectedError(photoMessages.tooManyPixels(0, 0), 413)
    throw new PhotoRejectedError(/premature|truncat|corrupt|end of/i.test(message) ? photoMessages.damaged : photoMessages.notImage)
  }
  const { width, height, channels } = master.info
  const widths = widthsFor(width)
  const files: PhotoFile[] = []
  for (const w of widths) {
    const resized = await sharp(master.data, { raw: { width, height, channels } })
      .resize({ width: w })
      .raw()
      .toBuffer({ resolveWithObject: true })
    for (const format of photoFormats) {
      const raw = { width: resized.info.width, height: resized.info.height, channels: resized.info.channels }
      const bytes = await encoders[format](sharp(resized.data, { raw })).toBuffer()
      files.push({ format, width: w, height: resized.info.height, bytes })
    }
  }
  return { key, width, height, widths, files, ms: Math.round(performance.now() - started) }
}

/**
 * One photo at a time per process: libvips already uses the thread pool for one image, and a
 * queue keeps a ten-photo upload from taking every core the pages need.
 */
export function createPhotoQueue(concurrency = 1) {
  let running = 0
  const waiting: (() => void)[] = []
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      // A finished photo hands its place straight to the next in line, so none can slip past.
      if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
      else running++
      try {
        return await work()
      } finally {
        const next = waiting.shift()
        if (next) next()
        else running--
      }
    },
    get waiting() {
      return waiting.length
    },
  }
}

export const photoQueue = createPhotoQueue()

let sharpLoaded: Promise<SharpConstructor> | undefined

/**
 * sharp (libvips) loads with the first photo, not at start: 33 MB and half a second that every
 * server would pay for the few that receive photos (docs/decisions/0013-lean-start.md).
 */
function loadSharp(): Promise<SharpConstructor> {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    // Keep libvips's own caches small: each photo is decoded once, nothing is worth keeping.
    sharp.cache({ memory: 32, items: 20, files: 0 })
    return sharp
  })
  return sharpLoaded
}
