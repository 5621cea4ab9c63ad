/**
 * Classes of src, read as TypeScript parses them: every exported class has a name of its own (two classes
 * of one name make every import of it ambiguous to a reader), and every error class is in the
 * `AgentTeamError` family (engine/errors.ts), so callers can act on the kind of any error the code raises.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceRoot } from './source-graph.js';

interface ClassFound {
  name: string;
  file: string;
  exported: boolean;
  /** Its fields' declared types, as written. */
  fieldTypes: string[];
  /** The name after `extends`, as written (`vscode.Disposable` keeps its qualifier). */
  base?: string;
  /** The string literal its own `name` field is set to, if it declares one so. */
  declaredName?: string;
}

/**
 * The error classes outside the family, each with its reason:
 * - RedactedError is a copy of someone else's error (secrets.ts): it carries that error's name and code, a
 *   number at times, so it is none of ours and does not take our `code`.
 * - UnexpectedModelCallError is a broken test script (testing/scripted-model.ts): the agent loop turns any
 *   error of the family into a failed turn, and this one must escape it as a bug does, so the test fails loudly.
 */
const outsideTheFamily = new Set(['RedactedError', 'UnexpectedModelCallError']);

function listTypeScript(prefix = ''): string[] {
  return readdirSync(path.join(sourceRoot, prefix)).flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(path.join(sourceRoot, relative)).isDirectory()) return listTypeScript(relative);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [relative] : [];
  });
}

function classesOf(file: string): ClassFound[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(sourceRoot, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: ClassFound[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
      const extended = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
      const exported = ts.isClassDeclaration(node) && (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export) !== 0;
      const fieldTypes = node.members.flatMap((member) =>
        ts.isPropertyDeclaration(member) && member.type ? [member.type.getText(source)] : [],
      );
      const nameField = node.members.find(
        (member) => ts.isPropertyDeclaration(member) && member.name.getText(source) === 'name' && member.initializer,
      ) as ts.PropertyDeclaration | undefined;
      const declaredName = nameField?.initializer && ts.isStringLiteral(nameField.initializer) ? nameField.initializer.text : undefined;
      found.push({
        name: node.name.text,
        file,
        exported,
        fieldTypes,
        ...(extended ? { base: extended.expression.getText(source) } : {}),
        ...(declaredName !== undefined ? { declaredName } : {}),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const classes = listTypeScript().flatMap(classesOf);

/** The first name of the chain from `name` up its bases (by name, which the first test keeps unique) that is `Error` or `AgentTeamError`. */
function rootOf(name: string): string | undefined {
  const byName = new Map(classes.map((found) => [found.name, found]));
  const seen = new Set<string>();
  for (let current: string | undefined = name; current !== undefined && !seen.has(current); current = byName.get(current)?.base) {
    if (current === 'AgentTeamError' || current === 'Error') return current;
    seen.add(current);
  }
  return undefined;
}

describe('classes of src', () => {
  it('every exported class has a name no other exported class has', () => {
    const files = new Map<string, string[]>();
    for (const found of classes.filter((each) => each.exported)) files.set(found.name, [...(files.get(found.name) ?? []), found.file]);
    expect([...files].filter(([, where]) => where.length > 1)).toEqual([]);
  });

  it('every error class is in the AgentTeamError family, but for the listed exceptions', () => {
    const errors = classes.filter((found) => found.name !== 'AgentTeamError' && found.base !== undefined && rootOf(found.name) === 'Error');
    expect(errors.filter((found) => !outsideTheFamily.has(found.name)).map((found) => `${found.file}: ${found.name}`)).toEqual([]);
    // An exception that joined the family (or went away) leaves the list, so the list cannot hide a new one.
    expect(errors.map((found) => found.name).sort()).toEqual([...outsideTheFamily].sort());
  });

  it('every error class of the family writes out its own name (a minified build renames classes, and users and traces read the name)', () => {
    const family = classes.filter((found) => found.name !== 'AgentTeamError' && rootOf(found.name) === 'AgentTeamError');
    expect(family.length).toBeGreaterThan(15);
    expect(family.filter((found) => found.declaredName !== found.name).map((found) => `${found.file}: ${found.name}`)).toEqual([]);
  });

  it('no class keeps its own list of disposables or release functions: it holds them in a DisposableStore (engine/util/disposable.ts)', () => {
    const lists = /^(?:Array<\s*(?:\(\) => \w+|(?:vscode\.)?Disposable)\s*>|(?:\(\(\) => \w+\)|(?:vscode\.)?Disposable)\[\])$/;
    const keeping = classes.filter((found) => found.fieldTypes.some((type) => lists.test(type)));
    expect(keeping.map((found) => `${found.file}: ${found.name}`)).toEqual([]);
    expect(['Array<() => void>', 'vscode.Disposable[]', '(() => void)[]'].every((type) => lists.test(type))).toBe(true);
  });

  it('reads the classes it judges: the family and a known member are found', () => {
    expect(classes.find((found) => found.name === 'AgentTeamError')).toMatchObject({ file: 'engine/errors.ts', base: 'Error' });
    expect(rootOf('ConfigurationError')).toBe('AgentTeamError');
    expect(classes.find((found) => found.name === 'ProviderError')?.declaredName).toBe('ProviderError');
  });
});
