import sharp from 'sharp'

/**
 * A stand-in for a phone's camera photo, since no real ones ship with the repository: 4032 × 3024
 * (12 megapixels), a sky, a lot, a cart-sized body with wheels and highlights, and sensor-like
 * grain, as a JPEG at quality 88 with EXIF (camera, GPS, orientation 1). It weighs about 3 MB,
 * like a phone's photo; `seed` varies the colours and the grain, so each is a different photo.
 */
export async function cameraPhoto(seed: number): Promise<Buffer> {
  const width = 4032
  const height = 3024
  const hue = (seed * 47) % 360
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7fb3e6"/><stop offset="1" stop-color="#e8f1fa"/></linearGradient>
      <linearGradient id="lot" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6b6f73"/><stop offset="1" stop-color="#3d4043"/></linearGradient>
      <linearGradient id="body" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,62%)"/><stop offset="1" stop-color="hsl(${hue},65%,32%)"/></linearGradient>
    </defs>
    <rect width="${width}" height="${height * 0.55}" fill="url(#sky)"/>
    <rect y="${height * 0.55}" width="${width}" height="${height * 0.45}" fill="url(#lot)"/>
    ${Array.from({ length: 14 }, (_, i) => `<rect x="${i * 300 + (seed % 5) * 20}" y="${height * 0.42}" width="180" height="${height * 0.13}" fill="hsl(${(hue + i * 25) % 360},25%,${35 + (i % 4) * 8}%)"/>`).join('')}
    <rect x="${width * 0.18}" y="${height * 0.38}" width="${width * 0.64}" height="${height * 0.3}" rx="120" fill="url(#body)"/>
    <rect x="${width * 0.3}" y="${height * 0.18}" width="${width * 0.42}" height="40" fill="#1f2937"/>
    <rect x="${width * 0.32}" y="${height * 0.18}" width="30" height="${height * 0.22}" fill="#374151"/>
    <rect x="${width * 0.68}" y="${height * 0.18}" width="30" height="${height * 0.22}" fill="#374151"/>
    <rect x="${width * 0.36}" y="${height * 0.45}" width="${width * 0.3}" height="${height * 0.08}" rx="30" fill="#111827"/>
    ${[0.28, 0.72].map((x) => `<circle cx="${width * x}" cy="${height * 0.7}" r="${height * 0.1}" fill="#111"/><circle cx="${width * x}" cy="${height * 0.7}" r="${height * 0.05}" fill="#9ca3af"/>`).join('')}
    <ellipse cx="${width * 0.45}" cy="${height * 0.42}" rx="${width * 0.2}" ry="30" fill="#fff" opacity="0.35"/>
  </svg>`
  // Texture at every scale, as real surfaces have (asphalt, leaves, paint): grain at full size,
  // and coarser grain enlarged from a fifth and a twenty-fourth of it, so it survives downscaling.
  const noise = async (scale: number, sigma: number) =>
    sharp({
      create: { width: Math.round(width / scale), height: Math.round(height / scale), channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } },
    })
      .resize(width, height, { kernel: 'cubic' })
      .greyscale()
      .toColourspace('srgb')
      .png({ compressionLevel: 1 })
      .toBuffer()
  const layers = await Promise.all([noise(1, 14 + (seed % 3)), noise(5, 16), noise(24, 18)])
  return sharp(Buffer.from(svg))
    .composite(layers.map((input) => ({ input, blend: 'overlay' as const })))
    .withExif({
      IFD0: { Make: 'Bench Phone', Model: 'Lot Camera' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '39/1 57/1 12/1', GPSLongitudeRef: 'W', GPSLongitude: '74/1 12/1 0/1' },
    })
    .jpeg({ quality: 88 })
    .toBuffer()
}
