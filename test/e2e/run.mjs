#!/usr/bin/env node
// End-to-end journeys of the Agent Team extension in a real VS Code (code-server) in a real browser
// (Debian's Chromium driven by playwright-core), against the mock model provider.
//
//   npm run test:e2e                         # everything: setup, package, all journeys
//   node test/e2e/run.mjs stop review        # only these journeys
//   node test/e2e/run.mjs --vsix some.vsix   # test a .vsix built elsewhere (skips npm run package)
//   node test/e2e/run.mjs --keep             # keep the scratch folder (workspaces, user data, logs)
//   node test/e2e/run.mjs --repeat 5 reload  # run them 5 times (flake hunting; artifacts per round)
//   node test/e2e/run.mjs --update-screenshots delegate review language-model approve  # the README's pictures
//
// Ends with the line "e2e: N passed, N failed" and exits non-zero on any failure, missing tooling and a
// run with no journey included: nothing is skipped. A failed journey leaves a screenshot, code-server's
// log and VS Code's logs in test-results/e2e/<journey>/.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { installExtension } from './tooling/code-server.mjs';
import { assertInstalled, isInstalled, paths as toolingPaths } from './tooling/paths.mjs';
import * as delegateJourney from './journeys/delegate.mjs';
import * as answerJourney from './journeys/answer.mjs';
import * as queuedQuestionJourney from './journeys/queued-question.mjs';
import * as followUpJourney from './journeys/follow-up.mjs';
import * as nestedJourney from './journeys/nested.mjs';
import * as planJourney from './journeys/plan.mjs';
import * as promptFileJourney from './journeys/prompt-file.mjs';
import * as workflowJourney from './journeys/workflow.mjs';
import * as reloadJourney from './journeys/reload.mjs';
import * as resumeJourney from './journeys/resume.mjs';
import * as branchJourney from './journeys/branch.mjs';
import * as restrictedJourney from './journeys/restricted.mjs';
import * as reviewJourney from './journeys/review.mjs';
import * as startJourney from './journeys/start.mjs';
import * as steerJourney from './journeys/steer.mjs';
import * as stopJourney from './journeys/stop.mjs';
import * as languageModelJourney from './journeys/language-model.mjs';
import * as hunkJourney from './journeys/hunk.mjs';
import * as undoJourney from './journeys/undo.mjs';
import * as altgrJourney from './journeys/altgr.mjs';
import * as multiRootJourney from './journeys/multi-root.mjs';
import * as gutterJourney from './journeys/gutter.mjs';
import * as conflictJourney from './journeys/conflict.mjs';
import * as budgetJourney from './journeys/budget.mjs';
import * as contextJourney from './journeys/context.mjs';
import * as reviseJourney from './journeys/revise.mjs';
import * as approveJourney from './journeys/approve.mjs';
import * as approveAlwaysJourney from './journeys/approve-always.mjs';
import * as activationJourney from './journeys/activation.mjs';
import * as problemsJourney from './journeys/problems.mjs';
import * as newRoleJourney from './journeys/new-role.mjs';
import * as checksJourney from './journeys/checks.mjs';
import * as planApprovalJourney from './journeys/plan-approval.mjs';
import { loadMockProvider } from './lib/mock-provider.mjs';
import { repoRoot, resultsDir, vsixPath } from './lib/paths.mjs';
import { openSession, saveArtifacts, saveAttachments } from './lib/session.mjs';
import { within } from './lib/wait.mjs';

const journeys = [
  delegateJourney,
  nestedJourney,
  workflowJourney,
  planJourney,
  planApprovalJourney,
  answerJourney,
  queuedQuestionJourney,
  steerJourney,
  followUpJourney,
  stopJourney,
  budgetJourney,
  contextJourney,
  reviewJourney,
  hunkJourney,
  altgrJourney,
  undoJourney,
  gutterJourney,
  conflictJourney,
  reviseJourney,
  reloadJourney,
  resumeJourney,
  branchJourney,
  restrictedJourney,
  multiRootJourney,
  startJourney,
  languageModelJourney,
  approveJourney,
  approveAlwaysJourney,
  problemsJourney,
  newRoleJourney,
  checksJourney,
  activationJourney,
  promptFileJourney,
];
/** The longest one journey may take, setup of its window included (they take 20–40 s here). */
const journeyTimeoutMs = 6 * 60_000;

const argv = process.argv.slice(2);
const option = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
const keep = argv.includes('--keep');
const updateScreenshots = argv.includes('--update-screenshots');
const givenVsix = option('--vsix');
const repeat = Number(option('--repeat') ?? 1);
const selected = argv.filter((arg, index) => !arg.startsWith('--') && !['--vsix', '--repeat'].includes(argv[index - 1]));
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const say = (line) => console.log(`[e2e] ${line}`);

/** Runs a command in the repo; `quiet` shows its output only when it fails. */
function runStep(label, command, args, { quiet = false } = {}) {
  const at = Date.now();
  say(`${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' });
  if (quiet && result.status !== 0) process.stdout.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.status !== 0) throw new Error(`${label} failed (exit ${result.status ?? result.signal})`);
  say(`${label} done in ${seconds(at)}`);
}

async function prepare(scratchDir) {
  // The tooling is cached (~/.cache/agent-team-e2e); setup.sh is a fraction of a second when it is.
  // Its progress is worth seeing only when it installs (minutes); a cached run just checks.
  runStep('tooling', 'bash', [toolingPaths.setupScript], { quiet: isInstalled() });
  // Missing tooling is a failure with the reason, never a silent skip (setup.sh should have installed it).
  assertInstalled();
  let vsix = givenVsix ? resolve(givenVsix) : vsixPath;
  if (!givenVsix) runStep('package', 'npm', ['run', '--silent', 'package'], { quiet: true });
  if (!existsSync(vsix)) throw new Error(`no .vsix at ${vsix}`);
  // A private copy: another build rewriting dist/ meanwhile cannot change what is under test.
  const copy = join(scratchDir, 'agent-team.vsix');
  copyFileSync(vsix, copy);
  vsix = copy;
  const extensionsDir = join(scratchDir, 'extensions');
  let at = Date.now();
  await installExtension(vsix, extensionsDir);
  say(`installed the extension in ${seconds(at)}`);
  // The test-only language model provider (test/e2e/fixtures/lm-provider), for the journeys without a key.
  at = Date.now();
  await installExtension(packageFixture('lm-provider', scratchDir), extensionsDir);
  say(`installed the mock language model extension in ${seconds(at)}`);
  // The test-only empty extension (test/e2e/fixtures/empty-extension): the activation journey's baseline.
  at = Date.now();
  await installExtension(packageFixture('empty-extension', scratchDir), extensionsDir);
  say(`installed the empty extension in ${seconds(at)}`);
  at = Date.now();
  const mock = await loadMockProvider(scratchDir);
  say(`bundled the mock provider in ${seconds(at)}`);
  return { extensionsDir, mock };
}

/** Packs a test-only extension of test/e2e/fixtures into a .vsix with the repo's vsce (offline). */
function packageFixture(name, scratchDir) {
  const target = join(scratchDir, `${name}.vsix`);
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const args = [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', target];
  const result = spawnSync(process.execPath, args, { cwd: join(repoRoot, 'test', 'e2e', 'fixtures', name), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`packaging the test extension ${name} failed:\n${result.stdout}${result.stderr}`);
  return target;
}

async function runJourney(journey, base, round) {
  const at = Date.now();
  const sessions = [];
  const attachments = [];
  const context = {
    mock: base.mock,
    scratchDir: base.scratchDir,
    /** Something to keep if the journey fails: a file path, a page (screenshot) or a function giving text. */
    attach: (fileName, source) => attachments.push({ fileName, source }),
    open: async (options) => {
      try {
        const session = await openSession({ ...base, log: context.log }, options);
        sessions.push(session);
        return session;
      } catch (error) {
        if (error.session) sessions.push(error.session);
        throw error;
      }
    },
    log: (line) => say(`  ${journey.name} +${seconds(at)} ${new Date().toISOString().slice(11, 23)}: ${line}`),
    /**
     * A picture for the README: kept in test-results/e2e/screenshots, and with --update-screenshots also
     * written to media/screenshots (what the README shows).
     */
    screenshot: async (name, page) => {
      const targets = [join(resultsDir, 'screenshots')];
      if (updateScreenshots) targets.push(join(repoRoot, 'media', 'screenshots'));
      for (const dir of targets) {
        mkdirSync(dir, { recursive: true });
        await page.screenshot({ path: join(dir, `${name}.png`) });
      }
    },
  };
  const dir = repeat > 1 ? join(resultsDir, journey.name, `round-${round}`) : join(resultsDir, journey.name);
  try {
    // A safety net over the per-step timeouts, so CI never waits on a stuck journey.
    await within(journey.run(context), journeyTimeoutMs, `journey ${journey.name} to finish`);
    say(`ok   ${journey.name} (${seconds(at)}): ${journey.title}`);
    return true;
  } catch (error) {
    const saved = [];
    for (const [index, session] of sessions.entries()) {
      saved.push(...(await saveArtifacts(session, sessions.length > 1 ? join(dir, `session-${index + 1}`) : dir, error)));
    }
    if (sessions.length === 0) saved.push(...(await saveArtifacts(undefined, dir, error)));
    saved.push(...(await saveAttachments(attachments, dir)));
    say(`FAIL ${journey.name} (${seconds(at)}): ${journey.title}\n${indent(String(error?.stack ?? error))}`);
    say(`     artifacts in ${dir}: ${[...new Set(saved)].join(', ')}`);
    return false;
  } finally {
    for (const session of sessions) await session.close();
  }
}

const indent = (text) =>
  text
    .split('\n')
    .map((line) => `     ${line}`)
    .join('\n');

async function main() {
  const unknown = selected.filter((wanted) => !journeys.some((journey) => journey.name === wanted));
  if (unknown.length > 0)
    throw new Error(`unknown journey ${unknown.join(', ')}; known: ${journeys.map((journey) => journey.name).join(', ')}`);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat needs a whole number >= 1');
  const toRun = selected.length > 0 ? journeys.filter((journey) => selected.includes(journey.name)) : journeys;
  const scratchDir = mkdtempSync(join(tmpdir(), 'agent-team-e2e-'));
  mkdirSync(resultsDir, { recursive: true });
  let passed = 0;
  let failed = 0;
  try {
    const base = { ...(await prepare(scratchDir)), scratchDir };
    say(`prepared in ${seconds(started)}; running ${toRun.length} journeys`);
    for (const journey of toRun) rmSync(join(resultsDir, journey.name), { recursive: true, force: true });
    for (let round = 1; round <= repeat; round++) {
      for (const journey of toRun) {
        if (await runJourney(journey, base, round)) passed++;
        else failed++;
      }
    }
  } catch (error) {
    failed++;
    say(`FAIL setup: ${error?.stack ?? error}`);
  } finally {
    if (keep) say(`kept ${scratchDir}`);
    else rmSync(scratchDir, { recursive: true, force: true });
  }
  say(`total ${seconds(started)}`);
  if (passed + failed === 0) {
    say('FAIL no journey ran');
    failed++;
  }
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
});
