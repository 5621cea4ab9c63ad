/**
 * What a PostToolUse hook changed in the scratch copy: a formatter's version of the file an Edit or Write
 * proposed becomes the task's proposal (through the task's own `Write`, so the workspace's rules apply);
 * what it changed elsewhere is named and not kept.
 */
import path from 'node:path';
import type { FinishedToolCall, ToolCallRequest } from '../agent/types.js';
import type { CapabilityTask } from '../capabilities/capability.js';
import type { HookDefinition } from './hook-config.js';
import { describeHook } from './hook-verdict.js';

/** The workspace path an Edit or Write call proposed, or undefined for any other call. */
export function edited(call: ToolCallRequest, root: string): string | undefined {
  if (call.toolName !== 'Edit' && call.toolName !== 'Write') return undefined;
  const filePath = (call.input as { file_path?: unknown } | undefined)?.file_path;
  if (typeof filePath !== 'string') return undefined;
  const relative = path.isAbsolute(filePath) ? path.relative(root, filePath) : filePath;
  const normal = path.posix.normalize(relative.split(path.sep).join('/'));
  return normal.startsWith('..') || path.isAbsolute(normal) ? undefined : normal;
}

/**
 * A formatter's work: the hook's version of the file the call edited becomes the task's proposal (through
 * `Write`, so the workspace's rules apply); what it changed elsewhere is named and not kept.
 */
export async function takeBack(
  task: CapabilityTask,
  hook: HookDefinition,
  call: FinishedToolCall,
  changed: readonly { path: string; content: string | undefined }[],
  root: string,
  signal: AbortSignal,
): Promise<string[]> {
  const target = edited(call, root);
  const write = task.files.edit.find((tool) => tool.name === 'Write');
  const notices: string[] = [];
  const others = changed.filter((file) => file.path !== target).map((file) => file.path);
  const own = changed.find((file) => file.path === target);
  if (own && write) {
    if (own.content === undefined)
      notices.push(
        `The PostToolUse hook ${describeHook(hook)} deleted ${own.path} or made it unreadable as text; your proposal stays as it was.`,
      );
    else {
      await write.execute({ file_path: own.path, content: own.content }, { signal, toolCallId: `${call.toolCallId}-hook` });
      notices.push(
        `The PostToolUse hook ${describeHook(hook)} changed ${own.path} after your ${call.toolName}; its version is now your proposal. Read the file again before you edit it further.`,
      );
    }
  }
  if (others.length > 0)
    notices.push(
      `The PostToolUse hook ${describeHook(hook)} also changed ${others.join(', ')} in its scratch copy; those changes are not kept.`,
    );
  return notices;
}
