import { builtInRoles } from './built-in/index.js';
import { errorMessage } from '../errors.js';
import { isRoleFile, type RoleFileLocation, roleFileLocations, userRoleLocations } from './role-file-locations.js';
import { type RoleFileSource } from './role-file-source.js';
import type { KnownTools } from './known-tools.js';
import { type RoleDefinition, type RoleDiagnostic, type RoleLoadResult, type RoleSource } from './types.js';

/**
 * Reads every role file in the workspace and merges them with the built-ins. Never throws: a file that
 * cannot be read or parsed becomes a diagnostic and the others still load.
 *
 * Precedence, highest first: `.agent-team/agents`, `.claude/agents`, `.github/agents`, then the user's own
 * (`~/.agent-team/agents`, `~/.claude/agents`, `~/.copilot/agents`, VS Code's user prompts folder), then
 * the built-ins.
 * Two files of one format defining the same name is a mistake (the first by file name wins, the other gets
 * a warning); the same name in two formats is usually a team keeping files for several tools, so the
 * lower one is quietly recorded in the winner's `overridden`.
 */
export async function loadRoles(
  source: RoleFileSource,
  /** The tool names the capabilities declare (known-tools.ts): what role files may list. */
  knownTools: KnownTools,
  /** Default `builtInRoles`. */
  builtIns: readonly RoleDefinition[] = builtInRoles,
  /** The user's home, for their own role files (below the workspace's). Default: none read. */
  userSource?: RoleFileSource,
  /** VS Code's user prompts folder, relative to the home (`userRoleLocations`). Default: none read. */
  userPromptsDirectory?: string,
): Promise<RoleLoadResult> {
  const perLocation = await Promise.all([
    ...roleFileLocations.map((location) => loadLocation(source, location, '', knownTools)),
    ...(userSource ? userRoleLocations(userPromptsDirectory).map((location) => loadLocation(userSource, location, '~/', knownTools)) : []),
  ]);
  const diagnostics: RoleDiagnostic[] = [];
  const workspaceRoles = new Map<string, { role: RoleDefinition; overridden: RoleSource[] }>();

  for (const loaded of perLocation) {
    diagnostics.push(...loaded.diagnostics);
    for (const role of loaded.roles) {
      const existing = workspaceRoles.get(role.name);
      if (!existing) {
        workspaceRoles.set(role.name, { role, overridden: [] });
      } else if (
        existing.role.source.kind === 'file' &&
        role.source.kind === 'file' &&
        existing.role.source.format === role.source.format &&
        isUsers(existing.role.source.path) === isUsers(role.source.path)
      ) {
        diagnostics.push({
          path: role.source.path,
          severity: 'warning',
          message: `defines role '${role.name}', which ${existing.role.source.path} already defines; this file is ignored`,
        });
      } else {
        existing.overridden.push(role.source);
      }
    }
  }

  const withOverrides = (entry: { role: RoleDefinition; overridden: RoleSource[] }): RoleDefinition =>
    entry.overridden.length === 0 ? entry.role : { ...entry.role, overridden: entry.overridden };
  const roles: RoleDefinition[] = builtIns.map((builtIn) => {
    const replacement = workspaceRoles.get(builtIn.name);
    if (!replacement) return builtIn;
    replacement.overridden.push(builtIn.source);
    return withOverrides(replacement);
  });
  const builtInNames = new Set(builtIns.map((role) => role.name));
  for (const [name, entry] of workspaceRoles) if (!builtInNames.has(name)) roles.push(withOverrides(entry));
  return { roles, diagnostics };
}

/** A role file of the user's home: its path is shown from `~/`. */
function isUsers(path: string): boolean {
  return path.startsWith('~/');
}

/** `shownAs`: what the paths of this location are shown after (`~/` for the user's home). */
async function loadLocation(
  source: RoleFileSource,
  location: RoleFileLocation,
  shownAs: string,
  knownTools: KnownTools,
): Promise<{ roles: RoleDefinition[]; diagnostics: RoleDiagnostic[] }> {
  let fileNames: string[];
  try {
    fileNames = (await source.list(location.directory)).filter((name) => isRoleFile(name, location)).sort();
  } catch (error) {
    const message = `could not list the role files in this directory: ${errorMessage(error)}`;
    return { roles: [], diagnostics: [{ path: `${shownAs}${location.directory}`, severity: 'error', message }] };
  }
  if (fileNames.length === 0) return { roles: [], diagnostics: [] };
  // The parser (and the YAML library under it) is loaded only when there are role files: most workspaces
  // have none, and evaluating it would add to the extension's activation (B5 in docs/performance.md).
  const { parseRoleFile } = await import('./parse-role-file.js');
  const parsed = await Promise.all(
    fileNames.map(async (fileName) => {
      const relative = `${location.directory}/${fileName}`;
      const path = `${shownAs}${relative}`;
      try {
        return parseRoleFile({ path, fileName, text: await source.read(relative), location, knownTools });
      } catch (error) {
        return { diagnostics: [{ path, severity: 'error' as const, message: `could not be read: ${errorMessage(error)}` }] };
      }
    }),
  );
  return {
    roles: parsed.flatMap((file) => (file.role ? [file.role] : [])),
    diagnostics: parsed.flatMap((file) => file.diagnostics),
  };
}
