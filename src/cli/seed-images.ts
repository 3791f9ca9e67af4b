import { crc32, deflateSync } from 'node:zlib';

/**
 * Product pictures for the demo catalog, drawn here so a first run needs no internet: a PNG
 * (Next.js's image optimizer refuses SVG by default) of a garment silhouette on a tinted
 * background. Plain PNG encoding (IHDR, one IDAT, IEND) with node:zlib; no image library needed.
 */
type Rgb = [number, number, number];

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes an RGB bitmap given as a function of (x, y). */
export function png(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export type Garment = 'tee' | 'sweatshirt' | 'pants' | 'shorts';

/** Whether (u, v) in [0,1]² lies on the garment's silhouette: a body plus sleeves or legs. */
function inside(kind: Garment, u: number, v: number): boolean {
  const body = u > 0.3 && u < 0.7 && v > 0.18 && v < 0.85;
  switch (kind) {
    case 'tee':
      return body || (v > 0.18 && v < 0.38 && u > 0.16 && u < 0.84 && v - 0.18 < (0.3 - Math.abs(u - 0.5)) * 1.2);
    case 'sweatshirt':
      return body || (v > 0.18 && v < 0.8 && ((u > 0.18 && u < 0.3) || (u > 0.7 && u < 0.82)));
    case 'pants':
      return u > 0.3 && u < 0.7 && v > 0.12 && v < 0.9 && !(v > 0.35 && u > 0.47 && u < 0.53);
    case 'shorts':
      return u > 0.28 && u < 0.72 && v > 0.3 && v < 0.65 && !(v > 0.45 && u > 0.47 && u < 0.53);
  }
}

/** A 600×600 picture of `kind` in `colour` on a light background; `back` mirrors a stripe for the back view. */
export function garmentImage(kind: Garment, colour: Rgb, back = false): Buffer {
  const size = 600;
  const background: Rgb = [243, 244, 246];
  const collar: Rgb = colour.map((c) => Math.round(c * 0.7 + 40)) as Rgb;
  return png(size, size, (x, y) => {
    const u = x / size;
    const v = y / size;
    if (!inside(kind, u, v)) return background;
    if (!back && kind !== 'pants' && kind !== 'shorts' && v < 0.23 && Math.abs(u - 0.5) < 0.08) return collar;
    if (back && v > 0.5 && v < 0.53) return collar;
    return colour;
  });
}
