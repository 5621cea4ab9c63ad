import { describe, expect, it } from 'vitest';
import { type LifecycleStep, type TaskPhase, nextPhase, statusFor } from '../../src/engine/tasks/task-lifecycle.js';

const phases: TaskPhase[] = ['queued', 'running', 'waiting', 'resuming', 'stopping', 'ended'];
const steps: LifecycleStep[] = ['grant', 'suspend', 'wake', 'stop', 'end'];

describe('the task lifecycle state machine', () => {
  it('allows exactly the moves of its table and refuses every other one loudly', () => {
    const allowed: string[] = [];
    for (const phase of phases) {
      for (const step of steps) {
        try {
          allowed.push(`${phase} -${step}-> ${nextPhase(phase, step)}`);
        } catch (error) {
          expect(error).toMatchObject({
            kind: 'illegal-transition',
            message: expect.stringContaining(`a task that is ${phase} cannot take the step "${step}"`),
          });
        }
      }
    }
    expect(allowed).toEqual([
      'queued -grant-> running',
      'queued -stop-> ended',
      'running -suspend-> waiting',
      'running -stop-> stopping',
      'running -end-> ended',
      'waiting -wake-> resuming',
      'waiting -stop-> stopping',
      'waiting -end-> ended',
      'resuming -grant-> running',
      'resuming -suspend-> waiting',
      'resuming -stop-> stopping',
      'resuming -end-> ended',
      'stopping -end-> ended',
    ]);
  });

  it('folds the phases into the public status; an ended task without an outcome is a bug', () => {
    expect(['queued', 'running', 'waiting', 'resuming'].map((phase) => statusFor(phase as TaskPhase, undefined))).toEqual([
      'queued',
      'running',
      'running',
      'running',
    ]);
    expect(statusFor('stopping', 'stopped')).toBe('stopped');
    expect(statusFor('ended', 'failed')).toBe('failed');
    expect(() => statusFor('ended', undefined)).toThrow(/has no outcome/);
  });

  it('shows a stop by the end of the session (shutdown, or found unfinished) as interrupted, any other stop as stopped', () => {
    expect(statusFor('ended', 'stopped', { kind: 'shutdown' })).toBe('interrupted');
    expect(statusFor('stopping', 'stopped', { kind: 'shutdown' })).toBe('interrupted');
    expect(statusFor('ended', 'stopped', { kind: 'interrupted' })).toBe('interrupted');
    for (const reason of [{ kind: 'user' }, { kind: 'parent-stopped', parentId: 't1' }, { kind: 'budget', detail: 'over' }] as const) {
      expect(statusFor('ended', 'stopped', reason)).toBe('stopped');
    }
    // A reason alone decides nothing: a failed task stays failed, a running one running.
    expect(statusFor('ended', 'failed', { kind: 'shutdown' })).toBe('failed');
    expect(statusFor('running', undefined, { kind: 'shutdown' })).toBe('running');
  });
});
