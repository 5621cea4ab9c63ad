import ignore, { type Ignore } from 'ignore';
import { relativeTo } from './paths.js';

/**
 * The `.gitignore` rules in force at one point of a directory walk: one layer per directory that has a
 * `.gitignore`, deepest decisive first, as git and ripgrep read them. Immutable: entering a directory
 * makes a new stack, so sibling subtrees never see each other's rules.
 *
 * Each entry is judged by its OWN path, never again by its parents': the walk already pruned ignored
 * directories, and re-judging parents (which `ignore().test()` does) would wrongly drop the contents of
 * a directory a deeper `.gitignore` re-included, or of a directory the caller asked for explicitly.
 */
export class IgnoreStack {
  static readonly empty = new IgnoreStack([]);

  private constructor(private readonly layers: readonly IgnoreLayer[]) {}

  /** This stack plus the rules of `directory`'s `.gitignore` (unchanged when `content` is null or empty). */
  with(directory: string, content: string | null): IgnoreStack {
    if (content === null || content.trim() === '') return this;
    return new IgnoreStack([...this.layers, new IgnoreLayer(directory, content)]);
  }

  isIgnored(path: string, isDirectory: boolean): boolean {
    for (let index = this.layers.length - 1; index >= 0; index--) {
      const layer = this.layers[index];
      const verdict = layer.judge(relativeTo(layer.directory, path), isDirectory);
      if (verdict !== undefined) return verdict === 'ignored';
    }
    return false;
  }

  /** Every layer's rules rewritten relative to the workspace root, root first (for ripgrep's --ignore-file). */
  rootRelativeRules(): string[] {
    return this.layers.flatMap((layer) => rewriteRulesForRoot(layer.directory, layer.content));
  }
}

class IgnoreLayer {
  private readonly rules: Ignore;
  /** Rules plus re-inclusions of a directory's ancestors, for the rare entries whose parents these rules ignore. */
  private readonly unpolluted = new Map<string, Ignore>();

  constructor(
    readonly directory: string,
    readonly content: string,
  ) {
    this.rules = ignore().add(content);
  }

  /** `relative` is relative to this layer's directory and never empty. */
  judge(relative: string, isDirectory: boolean): 'ignored' | 'unignored' | undefined {
    try {
      return this.judgeValid(relative, isDirectory);
    } catch {
      // `ignore` rejects names made only of dots (`...`); no gitignore rule can be meant for them.
      return undefined;
    }
  }

  private judgeValid(relative: string, isDirectory: boolean): 'ignored' | 'unignored' | undefined {
    const target = isDirectory ? `${relative}/` : relative;
    const result = this.rules.test(target);
    if (!result.ignored) return result.unignored ? 'unignored' : undefined;
    const slash = relative.lastIndexOf('/');
    if (slash < 0) return 'ignored';
    const parent = relative.slice(0, slash);
    if (!this.rules.test(`${parent}/`).ignored) return 'ignored';
    // These rules ignore a parent the walk still entered (another layer re-included it, or the caller
    // named it): judge the entry alone by re-including every ancestor after the rules.
    const retest = this.withAncestorsIncluded(parent).test(target);
    return retest.ignored ? 'ignored' : retest.unignored ? 'unignored' : undefined;
  }

  private withAncestorsIncluded(parent: string): Ignore {
    let rules = this.unpolluted.get(parent);
    if (!rules) {
      const segments = parent.split('/');
      const inclusions = segments.map((_, index) => `!/${escapeGitignoreLiteral(segments.slice(0, index + 1).join('/'))}/`);
      rules = ignore().add(this.content).add(inclusions);
      this.unpolluted.set(parent, rules);
    }
    return rules;
  }
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

/** Trailing spaces are dropped unless escaped with a backslash, as git does. */
function trimGitignoreLine(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ' && line[end - 2] !== '\\') end--;
  return line.slice(0, end);
}
