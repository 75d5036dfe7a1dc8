// A minimal PNG encoder (8-bit RGBA, no filtering) for the few raster images confab draws itself.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** zlib-wrapped deflate, as PNG wants; node:zlib is loaded by the first image, not at start. */
const deflate = (raw: Uint8Array): Uint8Array => (require("node:zlib") as typeof import("node:zlib")).deflateSync(raw);

/** Encodes `width`×`height` RGBA pixels (row by row) as a PNG file. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const header = new Uint8Array(13);
  const h = new DataView(header.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter, no interlace
  const raw = new Uint8Array(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflate(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A shape on a 64×64 canvas: whether a point is inside. */
export type Shape = (x: number, y: number) => boolean;

export const roundedRect =
  (x0: number, y0: number, x1: number, y1: number, r: number): Shape =>
  (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
    const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
    return dx * dx + dy * dy <= r * r;
  };

export const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

/** Draws layers of [shape, colour] (later layers on top) at `size` pixels, 4×4 samples a pixel. */
export function drawPng(size: number, layers: [Shape, [number, number, number]][]): Uint8Array {
  const px = new Uint8Array(size * size * 4);
  const N = 4;
  for (let py = 0; py < size; py++)
    for (let pxx = 0; pxx < size; pxx++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < N; sy++)
        for (let sx = 0; sx < N; sx++) {
          const x = ((pxx + (sx + 0.5) / N) * 64) / size;
          const y = ((py + (sy + 0.5) / N) * 64) / size;
          for (let i = layers.length - 1; i >= 0; i--)
            if (layers[i]![0](x, y)) {
              const c = layers[i]![1];
              r += c[0];
              g += c[1];
              b += c[2];
              a += 255;
              break;
            }
        }
      const n = N * N;
      const covered = a / 255;
      const o = (py * size + pxx) * 4;
      if (covered) px.set([Math.round(r / covered), Math.round(g / covered), Math.round(b / covered), Math.round(a / n)], o);
    }
  return encodePng(size, size, px);
}
