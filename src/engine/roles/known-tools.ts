/**
 * The tool names role files, workflows' inline agents and prompt files may name. roles/ does not know
 * them: the capabilities declare their tools (capability-descriptor.ts) on floors above this one, so the
 * composition root (team/engine-roles.ts) hands the list down, derived from `capabilityDescriptors`.
 * A capability that adds a tool is then a folder and one line in that list, with nothing to add here.
 * A list, not a set: its order is the order error messages show (`known tools: Read, Glob, …`).
 */
export type KnownTools = readonly string[];

/** The engine's spelling of a tool name written in any letter case, or undefined if no capability declares it. */
export function canonicalToolName(value: string, known: KnownTools): string | undefined {
  const lower = value.toLowerCase();
  return known.find((name) => name.toLowerCase() === lower);
}
