/** A short title from the prompt's first line, for the task list. */
export function describePrompt(prompt: string, maxLength = 60): string {
  const firstLine =
    prompt
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? prompt.trim();
  return firstLine.length <= maxLength ? firstLine : `${firstLine.slice(0, maxLength - 1).trimEnd()}…`;
}
