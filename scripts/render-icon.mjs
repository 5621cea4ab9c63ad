#!/usr/bin/env node
// Renders media/icon.svg to media/icon.png (128 × 128), the Marketplace icon, in the e2e tooling's
// Chromium (no image library needed). Run after changing the SVG: node scripts/render-icon.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../test/e2e/tooling/browser.mjs';
import { importPlaywright, paths } from '../test/e2e/tooling/paths.mjs';

const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'media', 'icon.svg'), 'utf8');
const { chromium } = await importPlaywright();
const browser = await chromium.launch({ executablePath: paths.chromium, args: [...CHROMIUM_ARGS] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(root, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
