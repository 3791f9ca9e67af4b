/** Bounds of a plugin package, checked when packing, uploading and installing. */
export const PACKAGE_LIMITS = {
  compressedBytes: 10 * 1024 * 1024,
  unpackedBytes: 50 * 1024 * 1024,
  files: 2000,
} as const;
