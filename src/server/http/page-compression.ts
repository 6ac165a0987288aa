import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { Encoding } from './list-answers';

/**
 * The pages' HTML compressed, kept per text. @fastify/compress adds its hook to routes, and the
 * client's pages answer from the not-found handler, which is no route: their HTML went out as it
 * was (Lighthouse: uses-text-compression). A page's HTML changes with the day (its data preloads
 * name today's range) and with the build, so there are a few dozen texts at most; compressing each
 * once at Brotli's highest quality costs milliseconds and the answer is then a lookup.
 */
export function pageCompressor(maxEntries = 64) {
  const kept = new Map<string, Buffer>();
  return (html: string, encoding: Encoding): Buffer => {
    const key = `${encoding}\u0000${html}`;
    const found = kept.get(key);
    if (found) return found;
    const body = Buffer.from(html, 'utf8');
    const compressed =
      encoding === 'br'
        ? brotliCompressSync(body, {
            params: {
              [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
              [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : gzipSync(body, { level: 9 });
    // yesterday's pages are of no more use: start again rather than grow
    if (kept.size >= maxEntries) kept.clear();
    kept.set(key, compressed);
    return compressed;
  };
}
