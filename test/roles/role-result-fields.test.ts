/**
 * A role file's limits, result shape and metadata: `maxTokens` (`max_tokens`), `permissionMode`,
 * `metadata`, `outputSchema` / `inputSchema` (`output_schema` / `input_schema`), each with its errors and
 * warnings on the field's line.
 */
import { describe, expect, it } from 'vitest';
import { parseRoleFile } from '../../src/engine/roles/parse-role-file.js';
import { type RoleFileFormat } from '../../src/engine/roles/types.js';
import { roleFileLocations } from '../../src/engine/roles/role-file-locations.js';
import { isReadOnlyRole, resolveRoleTools } from '../../src/engine/roles/role-tools.js';
import { roleNotes } from '../../src/engine/roles/role-notes.js';
import { roleFile } from './workspace-fixture.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

function parse(frontMatter: string, format: RoleFileFormat = 'agent-team') {
  const location = roleFileLocations.find((candidate) => candidate.format === format)!;
  const fileName = `worker${location.suffix}`;
  return parseRoleFile({
    knownTools: knownToolNames,
    path: `${location.directory}/${fileName}`,
    fileName,
    text: roleFile(`description: Works.\n${frontMatter}`),
    location,
  });
}

describe('maxTokens', () => {
  it.each([['maxTokens'], ['max_tokens']])('reads %s as the role subtree token limit, with no warning', (field) => {
    const { role, diagnostics } = parse(`${field}: 50000`);
    expect(diagnostics).toEqual([]);
    expect(role?.maxTokens).toBe(50_000);
  });

  it.each([['0'], ['-5'], ['1.5'], ['lots']])('refuses maxTokens: %s on its line', (value) => {
    const { role, diagnostics } = parse(`maxTokens: ${value}`);
    expect(role).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        line: 3,
        message: expect.stringContaining("'maxTokens' must be a positive whole number of tokens"),
      }),
    ]);
  });
});

describe('permissionMode', () => {
  it('plan leaves the role only the tools that read (delegation kept, depth permitting) and warns about what it drops', () => {
    const { role, diagnostics } = parse('tools: [Read, Grep, Edit, Bash, WebFetch, Agent]\npermissionMode: plan');
    expect(role?.permissionMode).toBe('plan');
    expect(resolveRoleTools(role!)).toEqual(['Read', 'Grep', 'WebFetch', 'Agent']);
    expect(isReadOnlyRole(parse('tools: [Read, Edit, Write]\npermissionMode: plan').role!)).toBe(true);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        line: 4,
        message: "permissionMode 'plan' makes the role read-only: it goes without Edit, Bash",
      }),
    ]);
  });

  it('plan with no tool list means the default tools less the edits, without a warning; its MCP servers are not started', () => {
    const plain = parse('permissionMode: plan', 'claude');
    expect(plain.diagnostics).toEqual([]);
    expect(resolveRoleTools(plain.role!)).toEqual(['Read', 'Glob', 'Grep', 'Skill']);
    const withServers = parse('permissionMode: plan\nmcpServers:\n  db:\n    command: db-server', 'claude');
    expect(withServers.role?.mcpServers).toBeUndefined();
    expect(withServers.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringContaining('its MCP servers are not started') }),
    ]);
  });

  it('acceptEdits loads with a note that nothing is accepted automatically; the tools stay as listed', () => {
    const { role, diagnostics } = parse('tools: [Read, Edit]\npermissionMode: acceptEdits', 'claude');
    expect(resolveRoleTools(role!)).toEqual(['Read', 'Edit']);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: "permissionMode 'acceptEdits': nothing is accepted automatically here; the role's edits are proposals the user reviews",
      }),
    ]);
  });

  it.each([['bypassPermissions'], ['dontAsk']])('%s is named in a warning and loosens nothing', (mode) => {
    const { role, diagnostics } = parse(`tools: [Read, Edit, Bash]\npermissionMode: ${mode}`, 'claude');
    expect(resolveRoleTools(role!)).toEqual(['Read', 'Edit', 'Bash']);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringMatching(
          new RegExp(
            `^permissionMode '${mode}' is not honoured: .*edits stay proposals the user reviews, and commands run only as the user allows`,
          ),
        ),
      }),
    ]);
  });

  it('default is silent; an unknown mode is ignored with a warning listing the known ones', () => {
    expect(parse('permissionMode: default', 'claude').diagnostics).toEqual([]);
    const unknown = parse('permissionMode: yolo', 'claude');
    expect(unknown.role?.permissionMode).toBeUndefined();
    expect(unknown.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: "permissionMode 'yolo' is not one of default, acceptEdits, plan, bypassPermissions, dontAsk; it is ignored",
      }),
    ]);
  });
});

describe('metadata', () => {
  it('is kept as plain, frozen data and shown short', () => {
    const { role, diagnostics } = parse(
      'metadata:\n  owner: platform-team\n  tags: [parsing, dates]\n  note: "a very long note that goes on and on well past forty characters"',
      'github',
    );
    expect(diagnostics).toEqual([]);
    expect(role?.metadata).toEqual({
      owner: 'platform-team',
      tags: ['parsing', 'dates'],
      note: 'a very long note that goes on and on well past forty characters',
    });
    expect(Object.isFrozen(role?.metadata) && Object.isFrozen(role?.metadata?.tags)).toBe(true);
    expect(roleNotes(role!)).toEqual([
      'metadata: owner=platform-team, tags=["parsing","dates"], note=a very long note that goes on and on we…',
    ]);
  });

  it('that is not a mapping, or too big, is ignored with a warning; the role loads', () => {
    const list = parse('metadata: [a, b]');
    expect(list.role?.metadata).toBeUndefined();
    expect(list.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', message: "'metadata' must be a mapping of names to values; it is ignored" }),
    ]);
    const big = parse(`metadata:\n${Array.from({ length: 17 }, (_, index) => `  key${index}: ${index}`).join('\n')}`);
    expect(big.role?.metadata).toBeUndefined();
    expect(big.diagnostics[0]?.message).toBe("'metadata' has 17 entries, more than 16; it is ignored");
  });
});

describe('outputSchema and inputSchema', () => {
  it.each([
    ['outputSchema', 'outputSchema'],
    ['output_schema', 'outputSchema'],
    ['inputSchema', 'inputSchema'],
    ['input_schema', 'inputSchema'],
  ] as const)('reads %s as a JSON Schema', (field, key) => {
    const { role, diagnostics } = parse(
      `${field}:\n  type: object\n  properties:\n    city: {type: string, pattern: "^[A-Z]"}\n  required: [city]`,
    );
    expect(diagnostics).toEqual([]);
    expect(role?.[key]).toEqual({ type: 'object', properties: { city: { type: 'string', pattern: '^[A-Z]' } }, required: ['city'] });
    expect(Object.isFrozen(role?.[key])).toBe(true);
  });

  it.each([
    ['outputSchema: just text', "'outputSchema' must be a JSON Schema object"],
    [
      'outputSchema:\n  type: objet',
      "'outputSchema' is not a JSON Schema that can be used: schema is invalid: data/type must be equal to one of the allowed values",
    ],
    ["outputSchema:\n  $ref: 'https://example.com/secret-name.json'", "'outputSchema' has a '$ref' that does not point inside it"],
    ["inputSchema:\n  type: string\n  pattern: '('", "'inputSchema' is not a JSON Schema that can be used"],
    ["outputSchema:\n  $schema: 'http://json-schema.org/draft-04/schema#'", "names a '$schema' other than draft-07 or 2020-12"],
  ])('refuses a schema that cannot be used, on its line: %s', (frontMatter, message) => {
    const { role, diagnostics } = parse(frontMatter);
    expect(role).toBeUndefined();
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', line: 3, message: expect.stringContaining(message) })]);
    expect(diagnostics[0]?.message).not.toContain('secret-name');
  });

  it('refuses a schema too big or too deep to be an answer shape', () => {
    const deep = `outputSchema:\n${Array.from({ length: 40 }, (_, index) => `${'  '.repeat(index + 1)}items:`).join('\n')} {type: string}`;
    expect(parse(deep).diagnostics[0]?.message).toContain('nests deeper than 32 levels');
    const wide = `outputSchema:\n  enum: [${Array.from({ length: 4000 }, (_, index) => `"value-${index}"`).join(', ')}]`;
    expect(parse(wide).diagnostics[0]?.message).toMatch(/is \d+ characters long as JSON, over the limit of 32000/);
  });

  it('shows in the role notes with the other limits', () => {
    const { role } = parse('maxTokens: 1200\ninputSchema: {type: object}\noutputSchema: {type: array}\npermissionMode: plan', 'claude');
    expect(roleNotes(role!)).toEqual([
      'permission mode: plan (read-only)',
      'token limit: 1,200 for its task and subtasks',
      'takes a JSON prompt (inputSchema)',
      'answers with JSON (outputSchema)',
    ]);
  });
});
