/** Role names, descriptions and prompts come from files and models: in chat markdown they stay text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|$]/g, (character) => `\\${character}`);
}
