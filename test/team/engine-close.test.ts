/**
 * `engine.close()` (issue 42): the one shutdown of everything `createEngine` built, in the order
 * engine-shutdown.ts states (role watchers, then tasks, then the history, then telemetry), leaving no timer
 * or watcher behind; a second call is a no-op. Over a real engine: real task manager, roles, capabilities.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Model } from '../../src/engine/model/types.js';
import { createEngine, type Engine, type EngineHost } from '../../src/engine/team/create-engine.js';
import { EngineShutdown } from '../../src/engine/team/engine-shutdown.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { HeldStep, ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { MemoryRoleFiles } from '../delegation/team-harness.js';

let root: string;
let order: string[];
let watching: number;
let clock: ManualClock;
let model: ScriptedModel;

function engineUnderTest(): Engine {
  return createEngine(hostPorts());
}

function hostPorts(): EngineHost {
  return {
    workspace: new NodeWorkspace(root),
    warn: (message) => order.push(`warning: ${message}`),
    clock,
    userHome: root,
    roleSources: {
      source: new MemoryRoleFiles(),
      watch: () => {
        watching += 1;
        return () => {
          watching -= 1;
          order.push('role watcher stopped');
        };
      },
    },
    tasks: {
      history: {
        close: async () => {
          order.push('history closed');
        },
      },
    },
    telemetry: async () => ({
      url: 'http://collector.invalid/v1/traces',
      observeModel: (_taskId: string, observed: Model) => observed,
      shutdown: async () => {
        order.push('telemetry sent');
      },
    }),
    trusted: () => false,
    commands: { allowedPatterns: () => [], howToAllow: 'nobody allows commands here' },
    web: { allowedDomains: () => [], howToAllow: 'nobody allows sites here' },
    secrets: () => [],
    environment: { HOME: root },
    modelFor: () => model,
    environmentNote: 'A test.',
  };
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agent-team-engine-close-'));
  order = [];
  watching = 0;
  clock = new ManualClock();
  model = new ScriptedModel([], { modelId: 'scripted' });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('engine.close()', () => {
  it('stops the running task, then saves the history, then sends the spans, once; nothing is left running', async () => {
    const engine = engineUnderTest();
    await engine.open();
    expect(watching).toBe(1);
    const held = new HeldStep([], []);
    model.enqueue(held);
    engine.taskManager.onEvent((event) => {
      if (event.type === 'task-end') order.push(`task ${event.task.id} ended: ${event.task.status}`);
    });
    const started = await engine.team().delegate({ prompt: 'Wait for me', role: 'researcher', mode: 'background' });
    await held.reached;

    const first = engine.close();
    const second = engine.close();
    expect(second).toBe(first);
    await first;

    expect(order).toEqual(['role watcher stopped', `task ${started.task.id} ended: interrupted`, 'history closed', 'telemetry sent']);
    expect(engine.taskManager.get(started.task.id)?.status).toBe('interrupted');
    expect(watching).toBe(0);
    expect(clock.pendingTimers).toBe(0);

    // A third call after the end: nothing runs again.
    await engine.close();
    expect(order).toHaveLength(4);
  });

  it('closes an engine that was never opened, which then refuses to open (nothing is started that nothing would end)', async () => {
    const engine = engineUnderTest();
    await engine.close();
    expect(order).toEqual(['history closed']);
    await expect(engine.open()).rejects.toThrow('The engine is closed');
    expect(watching).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a telemetry that starts while the engine closes is shut down as it arrives, not left sending', async () => {
    let arrive: (() => void) | undefined;
    let asked: () => void = () => {};
    const telemetryAsked = new Promise<void>((resolve) => (asked = resolve));
    const engine = createEngine({
      ...hostPorts(),
      telemetry: () =>
        new Promise((resolve) => {
          asked();
          arrive = () =>
            resolve({
              url: 'http://collector.invalid/v1/traces',
              observeModel: (_taskId: string, observed: Model) => observed,
              shutdown: async () => void order.push('late telemetry sent'),
            });
        }),
    });
    const opening = engine.open();
    await telemetryAsked;
    await engine.close();
    expect(order).toEqual(['role watcher stopped', 'history closed']);
    arrive!();
    await opening;
    expect(order).toEqual(['role watcher stopped', 'history closed', 'late telemetry sent']);
  });
});

describe('EngineShutdown', () => {
  it('runs the stages in their order whatever order they were added in, and a failed step does not stop the rest', async () => {
    const warnings: string[] = [];
    const shutdown = new EngineShutdown((message) => warnings.push(message));
    const ran: string[] = [];
    shutdown.add('telemetry', () => void ran.push('telemetry'));
    shutdown.add('history', () => Promise.reject(new Error('disk full')));
    shutdown.add('history', () => void ran.push('history'));
    shutdown.add('tasks', () => void ran.push('tasks'));
    shutdown.add('intake', () => void ran.push('intake'));
    await shutdown.close();
    expect(ran).toEqual(['intake', 'tasks', 'history', 'telemetry']);
    expect(warnings).toEqual(['Shutting down: disk full']);
    await shutdown.close();
    expect(ran).toHaveLength(4);
  });
});
