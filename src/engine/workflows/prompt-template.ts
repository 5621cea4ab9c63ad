/**
 * `{key}` placeholders in workflow prompts. `{input}` is the workflow's input, any other key the answer
 * of an earlier step that named it with `output_key` (inside a loop, also of a later step in the round
 * before: check-placeholders.ts). `{{` and `}}` stand for literal braces, so prompts can show code.
 * Anything else in braces (`{ x }`, `{1}`) is left as written.
 */
const placeholderPattern = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/** The keys a template uses, in order of first use. */
export function placeholdersOf(template: string): string[] {
  const keys: string[] = [];
  for (const match of template.matchAll(placeholderPattern)) {
    const key = match[1];
    if (key !== undefined && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** The template with each placeholder replaced by its value (validation has made sure each exists). */
export function fillTemplate(template: string, values: ReadonlyMap<string, string>): string {
  return template.replace(placeholderPattern, (match, key: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    return values.get(key as string) ?? match;
  });
}
