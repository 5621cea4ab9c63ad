/**
 * The role-file field `backgroundTasks`: what becomes of the background tasks an agent of the role
 * started and that still run when it answers (agent-tasks/background-results.ts).
 * - `wait` (the default): its answer waits for them, and it updates it with their results.
 * - `hand-to-parent`: it answers at once; their results reach the agent that started it, as notices.
 * A run's root ignores it: the host decides (the CLI waits; the extension leaves them to its sidebar).
 */
export const backgroundTaskPolicies = ['wait', 'hand-to-parent'] as const;

export type BackgroundTaskPolicy = (typeof backgroundTaskPolicies)[number];

export const backgroundTasksField = 'backgroundTasks';

/** The policy a role file sets, or undefined for the default; a value that is not one of them is an error. */
export function readBackgroundTasks(value: unknown, errorAt: (field: string, message: string) => void): BackgroundTaskPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && (backgroundTaskPolicies as readonly string[]).includes(value)) return value as BackgroundTaskPolicy;
  errorAt(backgroundTasksField, `'${backgroundTasksField}' must be one of ${backgroundTaskPolicies.join(', ')} (got '${String(value)}')`);
  return undefined;
}
