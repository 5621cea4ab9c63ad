/**
 * How what the user attached to a task reads to the agent that gets it, the same from `@team`, the
 * palette and the CLI's `--file`: after the prompt, one line per attachment.
 */

/** One attached file or folder, by its workspace path. */
export function attachedPathLine(path: string, kind: 'file' | 'folder'): string {
  return kind === 'folder' ? `- The folder \`${path.replace(/\/$/, '')}/\`` : `- The file \`${path}\` (read it with Read)`;
}

/** The prompt followed by its attachments' lines, or the prompt alone when there are none. */
export function withAttachments(prompt: string, lines: readonly string[]): string {
  const given = lines.filter((line) => line !== '');
  return given.length === 0 ? prompt : `${prompt}\n\n# Attached by the user\n${given.join('\n')}`;
}
