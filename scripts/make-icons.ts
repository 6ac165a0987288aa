/**
 * Draws the installable app's PNG icons (src/client/public/icons) from the favicon's design with
 * Chromium: `npx tsx scripts/make-icons.ts`. Run it again after changing the favicon, and commit the PNGs.
 * The maskable icon fills its square and keeps the mark inside the middle 80 %, the safe zone that
 * every mask shape leaves visible.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { systemChromium } from '../playwright.config';

const publicDir = fileURLToPath(new URL('../src/client/public/', import.meta.url));
const favicon = readFileSync(`${publicDir}favicon.svg`, 'utf8');
// the favicon's mark without its rounded background square
const mark = favicon
  .replace(/^<svg[^>]*>/, '')
  .replace(/<\/svg>\s*$/, '')
  .replace(/<rect[^>]*\/>/, '');

const plain = favicon;
const maskable =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#6d28d9"/>' +
  `<g transform="translate(16 16) scale(0.7) translate(-16 -16)">${mark}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: plain },
  { file: 'icon-512.png', size: 512, svg: plain },
  { file: 'maskable-512.png', size: 512, svg: maskable },
];

const browser = await chromium.launch({
  executablePath: systemChromium,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)}</body></html>`,
    );
    await page.screenshot({ path: `${publicDir}icons/${icon.file}`, omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
