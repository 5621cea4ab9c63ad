import { type GitignoreRule, judgeByRules, parseGitignore, trimGitignoreLine } from './gitignore-rules.js';
import { relativeTo } from './paths.js';
import { loadRe2 } from './regex-engine.js';

/**
 * The `.gitignore` rules in force at one point of a directory walk: one layer per directory that has a
 * `.gitignore`, deepest decisive first, as git and ripgrep read them. Immutable: entering a directory
 * makes a new stack, so sibling subtrees never see each other's rules.
 *
 * Each entry is judged by its OWN path, never again by its parents': the walk already pruned ignored
 * directories, and re-judging parents would wrongly drop the contents of a directory a deeper
 * `.gitignore` re-included, or of a directory the caller asked for explicitly.
 */
export class IgnoreStack {
  static readonly empty = new IgnoreStack([]);

  private constructor(private readonly layers: readonly IgnoreLayer[]) {}

  /** This stack plus the rules of `directory`'s `.gitignore` (unchanged when `content` is null or empty). */
  async with(directory: string, content: string | null): Promise<IgnoreStack> {
    if (content === null || content.trim() === '') return this;
    const rules = parseGitignore(content, await loadRe2());
    return new IgnoreStack([...this.layers, { directory, content, rules }]);
  }

  isIgnored(path: string, isDirectory: boolean): boolean {
    for (let index = this.layers.length - 1; index >= 0; index--) {
      const layer = this.layers[index];
      const verdict = judgeByRules(layer.rules, relativeTo(layer.directory, path), isDirectory);
      if (verdict !== undefined) return verdict === 'ignored';
    }
    return false;
  }

  /** Every layer's rules rewritten relative to the workspace root, root first (for ripgrep's --ignore-file). */
  rootRelativeRules(): string[] {
    return this.layers.flatMap((layer) => rewriteRulesForRoot(layer.directory, layer.content));
  }
}

interface IgnoreLayer {
  directory: string;
  content: string;
  rules: readonly GitignoreRule[];
}

export function escapeGitignoreLiteral(path: string): string {
  return path.replace(/[\\*?[\]]/g, '\\$&').replace(/ $/, '\\ ');
}

/**
 * Rewrites the rules of `directory/.gitignore` so that they mean the same when read from the root:
 * anchored rules (`/x`, `a/b`) get the directory prefixed; floating ones (`*.log`) become `dir/**\/*.log`.
 */
export function rewriteRulesForRoot(directory: string, content: string): string[] {
  const rules: string[] = [];
  for (const rawLine of content.split(/\r?\n/)) {
    const line = trimGitignoreLine(rawLine);
    if (line === '' || line.startsWith('#')) continue;
    if (directory === '') {
      rules.push(line);
      continue;
    }
    const negated = line.startsWith('!');
    let body = negated ? line.slice(1) : line;
    if (body.startsWith('\\!') || body.startsWith('\\#')) body = body.slice(1);
    const withoutTrailingSlash = body.endsWith('/') ? body.slice(0, -1) : body;
    const anchored = body.startsWith('/') || withoutTrailingSlash.includes('/');
    if (body.startsWith('/')) body = body.slice(1);
    const prefix = `/${escapeGitignoreLiteral(directory)}/`;
    rules.push(`${negated ? '!' : ''}${prefix}${anchored ? '' : '**/'}${body}`);
  }
  return rules;
}
