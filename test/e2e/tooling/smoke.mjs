#!/usr/bin/env node
// End-to-end smoke test of the e2e tooling (run setup.sh first):
//
//   node test/e2e/tooling/smoke.mjs [--out-dir /tmp] [--keep]
//
// 1. builds a tiny .vsix (a command "Agent Team Smoke: Hello", not allowed in
//    untrusted workspaces) and installs it with installExtension();
// 2. trusted: starts code-server on a temp folder holding hello.txt, opens it
//    in Chromium, waits for the workbench, opens hello.txt with Ctrl+P, runs
//    the extension's command from the palette (F1) and sees its notification,
//    runs "File: New Untitled Text File", screenshots <out-dir>/e2e-smoke.png;
// 3. untrusted: same folder with trusted:false; checks Restricted Mode and that
//    the extension's command is absent, screenshots <out-dir>/e2e-smoke-untrusted.png;
// 4. trust prompt: trusted:false + trustPrompt:true, answers "Yes, I trust the
//    authors", then runs the (now enabled) extension's command.
// Ends with "smoke: N passed, N failed" and exits non-zero on any failure.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { answerTrustPrompt, isRestrictedMode, openVSCode, runCommand } from './browser.mjs';
import { installExtension, startCodeServer } from './code-server.mjs';
import { assertInstalled, installInfo } from './paths.mjs';

const argv = process.argv.slice(2);
const outDir = argv.includes('--out-dir') ? argv[argv.indexOf('--out-dir') + 1] : '/tmp';
const keep = argv.includes('--keep');
const HELLO = 'Hello from the Agent Team e2e smoke test';
const EXT_MESSAGE = 'Agent Team smoke extension says hello';

let passed = 0;
let failed = 0;
const timings = {};
async function check(name, fn) {
  const t = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok   ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name} (${Date.now() - t} ms)\n     ${String(e?.stack ?? e).split('\n').join('\n     ')}`);
  }
}
async function timed(key, fn) {
  const t = Date.now();
  const r = await fn();
  timings[key] = Date.now() - t;
  return r;
}

// ---- a minimal .vsix (zip) written with node:zlib ---------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const comp = deflateRawSync(data);
    const nameBuf = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(comp.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(comp.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, comp);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
function writeSmokeVsix(path) {
  const pkg = {
    name: 'agent-team-smoke',
    displayName: 'Agent Team Smoke',
    publisher: 'agent-team-e2e',
    version: '0.0.1',
    engines: { vscode: '^1.80.0' },
    main: './extension.js',
    activationEvents: [],
    capabilities: { untrustedWorkspaces: { supported: false, description: 'smoke test: needs trust' } },
    contributes: { commands: [{ command: 'agentTeamSmoke.hello', title: 'Hello', category: 'Agent Team Smoke' }] },
  };
  const ext = `const vscode = require('vscode');
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('agentTeamSmoke.hello', () =>
    vscode.window.showInformationMessage(${JSON.stringify(EXT_MESSAGE)} + ' (trusted=' + vscode.workspace.isTrusted + ')')));
};
exports.deactivate = () => {};
`;
  const manifest = `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata><Identity Language="en-US" Id="agent-team-smoke" Version="0.0.1" Publisher="agent-team-e2e"/>
    <DisplayName>Agent Team Smoke</DisplayName><Description xml:space="preserve">smoke</Description>
    <Categories>Other</Categories><Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="^1.80.0"/></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>
  <Dependencies/>
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true"/></Assets>
</PackageManifest>
`;
  const types = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".js" ContentType="application/javascript"/><Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>
`;
  writeFileSync(
    path,
    zip({
      '[Content_Types].xml': types,
      'extension.vsixmanifest': manifest,
      'extension/package.json': JSON.stringify(pkg, null, 2),
      'extension/extension.js': ext,
    }),
  );
}

// ---- the run ----------------------------------------------------------------
async function paletteHas(page, label) {
  await page.keyboard.press('F1');
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  // Wait until the palette has decided: the row, or VS Code's "No matching commands".
  const row = widget.locator('.monaco-list-row', { hasText: label }).first();
  const none = widget.getByText('No matching commands').first();
  await row.or(none).waitFor({ state: 'visible', timeout: 30_000 });
  const found = await row.isVisible();
  await page.keyboard.press('Escape');
  return found;
}

async function main() {
  assertInstalled();
  const info = installInfo();
  console.log(`tooling: node ${info.node}, code-server ${info.codeServer}, playwright-core ${info.playwrightCore}`);
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'agent-team-smoke-'));
  const ws = join(scratch, 'workspace');
  const extensionsDir = join(scratch, 'extensions');
  mkdirSync(ws);
  writeFileSync(join(ws, 'hello.txt'), `${HELLO}\n`);
  const vsix = join(scratch, 'agent-team-smoke-0.0.1.vsix');
  writeSmokeVsix(vsix);
  const cleanups = [];

  try {
    await check('installExtension(.vsix)', async () => {
      await timed('installExtensionMs', () => installExtension(vsix, extensionsDir));
    });

    // ---------------- trusted ----------------
    let cs;
    let vs;
    await check('trusted: code-server starts and answers /healthz', async () => {
      cs = await timed('serverStartMs', () => startCodeServer({ workspaceDir: ws, extensionsDir, trusted: true }));
      cleanups.push(() => cs.stop({ cleanup: !keep }));
      console.log(`     ${cs.url}  log: ${cs.logPath}`);
    });
    if (cs) {
      await check('trusted: Chromium shows the workbench', async () => {
        vs = await timed('workbenchMs', () => openVSCode(cs.url, ws));
        cleanups.push(() => vs.close());
      });
    }
    if (vs) {
      const { page } = vs;
      await check('trusted: not in Restricted Mode', async () => {
        await page.waitForTimeout(1000); // give the trust service a moment to speak up
        if (await isRestrictedMode(page)) throw new Error('status bar shows Restricted Mode');
      });
      await check('trusted: Ctrl+P opens hello.txt and its text renders', async () => {
        await page.keyboard.press('Control+P');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill('hello.txt');
        await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'hello.txt' }).first().waitFor({ timeout: 60_000 });
        await page.keyboard.press('Enter');
        await page.locator('.editor-instance .view-lines', { hasText: HELLO }).first().waitFor({ timeout: 30_000 });
      });
      await check('trusted: F1 runs the installed extension\'s command', async () => {
        await runCommand(page, 'Agent Team Smoke: Hello');
        await page
          .locator('.notifications-toasts .notification-toast', { hasText: `${EXT_MESSAGE} (trusted=true)` })
          .first()
          .waitFor({ timeout: 30_000 });
      });
      await check('trusted: F1 runs "File: New Untitled Text File"', async () => {
        const id = await runCommand(page, 'File: New Untitled Text File');
        if (id !== 'workbench.action.files.newUntitledFile') throw new Error(`palette ran ${id}`);
        await page.locator('.tabs-container .tab.active', { hasText: /^Untitled-1$/ }).first().waitFor({ timeout: 10_000 });
        await page.keyboard.type('typed by the smoke test');
      });
      await check(`trusted: screenshot ${join(outDir, 'e2e-smoke.png')}`, async () => {
        await page.screenshot({ path: join(outDir, 'e2e-smoke.png') });
      });
    }
    while (cleanups.length) await cleanups.pop()();
    if (cs) {
      await check('trusted: stop() leaves no process behind', async () => {
        try {
          process.kill(-cs.pid, 0);
          throw new Error(`process group ${cs.pid} still alive`);
        } catch (e) {
          if (e.code !== 'ESRCH') throw e;
        }
      });
    }

    // ---------------- untrusted ----------------
    let cs2;
    let vs2;
    await check('untrusted: code-server starts', async () => {
      cs2 = await startCodeServer({ workspaceDir: ws, extensionsDir, trusted: false });
      cleanups.push(() => cs2.stop({ cleanup: !keep }));
    });
    if (cs2) {
      await check('untrusted: Chromium shows the workbench', async () => {
        vs2 = await openVSCode(cs2.url, ws);
        cleanups.push(() => vs2.close());
      });
    }
    if (vs2) {
      const { page } = vs2;
      await check('untrusted: window is in Restricted Mode', async () => {
        await page
          .locator('.monaco-workbench .part.statusbar')
          .getByText('Restricted Mode')
          .first()
          .waitFor({ timeout: 30_000 });
        if (!(await isRestrictedMode(page))) throw new Error('isRestrictedMode() disagrees');
      });
      await check('untrusted: the extension (untrustedWorkspaces.supported=false) is not available', async () => {
        if (await paletteHas(page, 'Agent Team Smoke: Hello')) throw new Error('command is offered in Restricted Mode');
      });
      await check(`untrusted: screenshot ${join(outDir, 'e2e-smoke-untrusted.png')}`, async () => {
        await page.screenshot({ path: join(outDir, 'e2e-smoke-untrusted.png') });
      });
    }
    while (cleanups.length) await cleanups.pop()();

    // ---------------- untrusted, then trusted through the prompt ----------------
    let cs3;
    let vs3;
    await check('trust prompt: code-server starts, Chromium shows the workbench', async () => {
      cs3 = await startCodeServer({ workspaceDir: ws, extensionsDir, trusted: false, trustPrompt: true });
      cleanups.push(() => cs3.stop({ cleanup: !keep }));
      vs3 = await openVSCode(cs3.url, ws);
      cleanups.push(() => vs3.close());
    });
    if (vs3) {
      await check('trust prompt: "Yes, I trust the authors" leaves Restricted Mode and enables the extension', async () => {
        await answerTrustPrompt(vs3.page, true, { timeoutMs: 30_000 });
        await runCommand(vs3.page, 'Agent Team Smoke: Hello', { timeoutMs: 30_000 });
        await vs3.page
          .locator('.notifications-toasts .notification-toast', { hasText: `${EXT_MESSAGE} (trusted=true)` })
          .first()
          .waitFor({ timeout: 30_000 });
      });
    }
  } finally {
    while (cleanups.length) await cleanups.pop()().catch(() => {});
    if (!keep) rmSync(scratch, { recursive: true, force: true });
    else console.log(`kept ${scratch}`);
  }
  console.log(`timings: ${JSON.stringify(timings)}`);
  console.log(`smoke: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  console.log(`smoke: ${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
