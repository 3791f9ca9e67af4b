/**
 * The image types we accept, recognised by their first bytes rather than by the name or the
 * declared type (a browser shown a file as an image must get an image). SVG is refused: it
 * can carry script.
 */
const SIGNATURES: { type: string; ext: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/png',
    ext: 'png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/gif', ext: 'gif', test: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  {
    type: 'image/avif',
    ext: 'avif',
    test: (b) =>
      b.subarray(4, 8).toString('latin1') === 'ftyp' && ['avif', 'avis'].includes(b.subarray(8, 12).toString('latin1')),
  },
];

export const ACCEPTED_TYPES = SIGNATURES.map((s) => s.type);

export function sniffImage(bytes: Buffer): { type: string; ext: string } | undefined {
  return SIGNATURES.find((s) => s.test(bytes));
}

export const typeOfExtension = (ext: string) => SIGNATURES.find((s) => s.ext === ext)?.type;

/** A safe stem from a client's file name: lower-case letters, digits and dashes, at most 60. */
export function safeStem(filename: string): string {
  const stem = filename
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return stem || 'file';
}
