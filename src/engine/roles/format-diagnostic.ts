import { type RoleDiagnostic } from './types.js';

/** One line for a terminal or a log: `path:line: severity: message`, the form editors make clickable. */
export function formatRoleDiagnostic(diagnostic: RoleDiagnostic): string {
  const location = diagnostic.line === undefined ? diagnostic.path : `${diagnostic.path}:${diagnostic.line}`;
  return `${location}: ${diagnostic.severity}: ${diagnostic.message}`;
}
