/**
 * What a run knows about its models' context windows and when it compacts, read by every agent task: the
 * window of each model (model/context-windows.ts) and the fraction of it past which the conversation is
 * summarised (`agentTeam.compactAt`).
 */

import { ContextWindowTable } from '../../model/context-windows.js';

/** `agentTeam.compactAt`'s default: compact once a request would fill 80 % of the window. */
export const defaultCompactAt = 0.8;

export interface ContextPolicy {
  /** The window of `provider/model` in tokens; undefined when unknown (no meter, no compaction ahead of time). */
  windowOf(model: string): number | undefined;
  /** The fraction of the window past which a conversation is compacted before its next request. Default 0.8. */
  compactAt?: number;
}

/** True for a usable `compactAt`: at least 0.2 (a summary must leave room) and at most 1. */
export function isCompactAt(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0.2 && value <= 1;
}

/** A policy from a window table and a threshold (default 0.8). */
export function contextPolicy(table: ContextWindowTable, compactAt: number = defaultCompactAt): ContextPolicy {
  return { windowOf: (model: string) => table.windowOf(model), compactAt };
}

/** The list's windows (model-context-windows.json) and the default threshold: for hosts that configure none. */
export const listContextPolicy: ContextPolicy = contextPolicy(new ContextWindowTable());
