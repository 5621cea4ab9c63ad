import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/engine/errors.js';
import { builtInRoles } from '../../src/engine/roles/built-in/index.js';
import { watchRoleDirectories } from '../../src/engine/roles/node-role-watch.js';
import { type RoleFileSource, type RoleWatch } from '../../src/engine/roles/role-file-source.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import { type RoleLoadResult } from '../../src/engine/roles/types.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { roleFile, useTemporaryWorkspaces } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

const createWorkspace = useTemporaryWorkspaces();

/** Fails the test with `what` if `promise` has not settled in time, instead of hanging until vitest's timeout. */
function within<Value>(promise: Promise<Value>, what: string, milliseconds = 5_000): Promise<Value> {
  let cancel: () => void = () => {};
  const timeout = new Promise<never>((_resolve, reject) => {
    const handle = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), milliseconds);
    cancel = () => clearTimeout(handle);
  });
  return Promise.race([promise, timeout]).finally(cancel);
}

function nextChange(registry: RoleRegistry): Promise<RoleLoadResult> {
  return new Promise((resolve) => {
    const stop = registry.onDidChange((result) => {
      stop();
      resolve(result);
    });
  });
}

/** A watcher the test fires by hand; records whether it was disposed. */
function manualWatch() {
  const state = { fire: () => {}, disposed: false, started: 0 };
  const watch: RoleWatch = (onChange) => {
    state.started++;
    state.fire = onChange;
    return () => {
      state.disposed = true;
    };
  };
  return { watch, state };
}

/** Counts how many loads read the files. */
function countingSource(source: RoleFileSource) {
  const counter = { loads: 0 };
  const counted: RoleFileSource = {
    list(directory) {
      if (directory === '.agent-team/agents') counter.loads++;
      return source.list(directory);
    },
    read: (path) => source.read(path),
  };
  return { source: counted, counter };
}

describe('RoleRegistry', () => {
  it('holds the built-ins before loading, then the workspace roles, with get, require and list', async () => {
    const workspace = await createWorkspace();
    await workspace.write('.agent-team/agents/tester.md', roleFile('description: Writes tests.'));
    await workspace.write('.claude/agents/broken.md', '---\nname: broken\n---\n');
    const registry = new RoleRegistry({ knownTools: knownToolNames, source: workspace.source });
    expect(registry.list()).toEqual(builtInRoles);

    const result = await registry.load();

    expect(result.roles.map((role) => role.name)).toEqual(['researcher', 'reviewer', 'refactorer', 'tester']);
    expect(result.diagnostics.map((diagnostic) => diagnostic.path)).toEqual(['.claude/agents/broken.md', '.claude/agents/broken.md']);
    expect(registry.list()).toBe(result.roles);
    expect(registry.diagnostics).toBe(result.diagnostics);
    expect(registry.get('tester')?.description).toBe('Writes tests.');
    expect(registry.get('nobody')).toBeUndefined();
    expect(registry.require('researcher').name).toBe('researcher');
    expect(() => registry.require('nobody')).toThrow(ConfigurationError);
    expect(() => registry.require('nobody')).toThrow("Unknown role 'nobody'. Available roles: researcher, reviewer, refactorer, tester.");
  });

  it('emits a change on reload only when the roles or diagnostics changed, and rebuilds the roster', async () => {
    const workspace = await createWorkspace();
    const registry = new RoleRegistry({ knownTools: knownToolNames, source: workspace.source });
    const changes: RoleLoadResult[] = [];
    registry.onDidChange((result) => changes.push(result));

    await registry.load();
    expect(changes).toHaveLength(0);
    expect(registry.describeRoster()).not.toContain('translator');

    await workspace.write('.agent-team/agents/translator.md', roleFile('description: Translates strings.'));
    await registry.reload();
    expect(changes).toHaveLength(1);
    expect(changes[0].roles.map((role) => role.name)).toContain('translator');
    expect(registry.describeRoster()).toContain('- translator: Translates strings.');

    await registry.reload();
    expect(changes).toHaveLength(1);
  });

  it('reloads once, after the debounce, when the host watcher reports a burst of changes', async () => {
    const workspace = await createWorkspace();
    const clock = new ManualClock();
    const { watch, state } = manualWatch();
    const { source, counter } = countingSource(workspace.source);
    const registry = new RoleRegistry({ knownTools: knownToolNames, source, watch, clock, debounceMs: 200 });
    await registry.load();
    await registry.load();
    expect(state.started).toBe(1);
    expect(counter.loads).toBe(2);

    await workspace.write('.agent-team/agents/linter.md', roleFile('description: Lints.'));
    const changed = nextChange(registry);
    state.fire();
    await clock.advance(150);
    state.fire();
    state.fire();
    await clock.advance(199);
    expect(counter.loads).toBe(2);
    expect(clock.pendingTimers).toBe(1);

    await clock.advance(1);
    const result = await within(changed, 'the registry to reload');
    expect(counter.loads).toBe(3);
    expect(result.roles.map((role) => role.name)).toContain('linter');
    expect(registry.get('linter')).toBeDefined();
  });

  it('stops watching, cancels a pending reload and drops listeners on dispose', async () => {
    const workspace = await createWorkspace();
    const clock = new ManualClock();
    const { watch, state } = manualWatch();
    const { source, counter } = countingSource(workspace.source);
    const registry = new RoleRegistry({ knownTools: knownToolNames, source, watch, clock });
    await registry.load();
    state.fire();
    expect(clock.pendingTimers).toBe(1);

    registry.dispose();

    expect(state.disposed).toBe(true);
    expect(clock.pendingTimers).toBe(0);
    state.fire();
    await clock.advance(1_000);
    expect(counter.loads).toBe(1);
  });

  it("calls every listener even when one throws, and rejects the reload with that listener's error", async () => {
    const workspace = await createWorkspace();
    const registry = new RoleRegistry({ knownTools: knownToolNames, source: workspace.source });
    const heard: string[] = [];
    registry.onDidChange(() => {
      throw new Error('listener broke');
    });
    registry.onDidChange((result) => heard.push(result.roles.at(-1)?.name ?? ''));
    await workspace.write('.agent-team/agents/auditor.md', roleFile('description: Audits.'));

    await expect(registry.reload()).rejects.toThrow('listener broke');
    expect(heard).toEqual(['auditor']);
    expect(registry.get('auditor')).toBeDefined();
  });

  it('applies the loads in call order, so the last reload reflects the latest files', async () => {
    const workspace = await createWorkspace();
    const registry = new RoleRegistry({ knownTools: knownToolNames, source: workspace.source });
    await workspace.write('.agent-team/agents/first.md', roleFile('description: One.'));
    const earlier = registry.reload();
    await workspace.remove('.agent-team/agents/first.md');
    await workspace.write('.agent-team/agents/second.md', roleFile('description: Two.'));
    const later = registry.reload();

    await Promise.all([earlier, later]);

    expect(registry.get('second')).toBeDefined();
    expect(registry.get('first')).toBeUndefined();
  });
});

describe('watchRoleDirectories (fs.watch)', () => {
  /** A registry over a real workspace and the real watcher; the test releases the debounce by hand. */
  async function watchedRegistry() {
    const workspace = await createWorkspace();
    const clock = new ManualClock();
    let signalled: () => void = () => {};
    let watcherFired = new Promise<void>((resolve) => (signalled = resolve));
    const nodeWatch = watchRoleDirectories(workspace.root);
    // Wraps the real watcher to learn when it fires, so the test advances the clock only after that.
    const watch: RoleWatch = (onChange) =>
      nodeWatch(() => {
        signalled();
        onChange();
      });
    const registry = new RoleRegistry({ knownTools: knownToolNames, source: workspace.source, watch, clock, debounceMs: 100 });
    const expectReload = async (change: () => Promise<void>): Promise<RoleLoadResult> => {
      watcherFired = new Promise<void>((resolve) => (signalled = resolve));
      const changed = nextChange(registry);
      await change();
      await within(watcherFired, 'fs.watch to report the change');
      await clock.advance(100);
      return within(changed, 'the registry to reload');
    };
    return { workspace, registry, expectReload };
  }

  it('notices a role directory created from nothing, then edits and deletions inside it', async () => {
    const { workspace, registry, expectReload } = await watchedRegistry();
    try {
      await registry.load();

      const created = await expectReload(() => workspace.write('.claude/agents/migrator.md', roleFile('description: Migrates.')));
      expect(created.roles.find((role) => role.name === 'migrator')?.description).toBe('Migrates.');

      const edited = await expectReload(() => workspace.write('.claude/agents/migrator.md', roleFile('description: Migrates databases.')));
      expect(edited.roles.find((role) => role.name === 'migrator')?.description).toBe('Migrates databases.');

      const deleted = await expectReload(() => workspace.remove('.claude/agents/migrator.md'));
      expect(deleted.roles.some((role) => role.name === 'migrator')).toBe(false);
    } finally {
      registry.dispose();
    }
  });

  it('notices a broken file and reports it as a diagnostic', async () => {
    const { workspace, registry, expectReload } = await watchedRegistry();
    await workspace.write('.agent-team/agents/keep.md', roleFile('description: Keeps.'));
    try {
      await registry.load();
      const result = await expectReload(() => workspace.write('.agent-team/agents/bad.md', roleFile('description: Bad.\nmode: nope')));
      expect(result.diagnostics).toEqual([expect.objectContaining({ path: '.agent-team/agents/bad.md', severity: 'error' })]);
      expect(result.roles.some((role) => role.name === 'keep')).toBe(true);
    } finally {
      registry.dispose();
    }
  });
});
