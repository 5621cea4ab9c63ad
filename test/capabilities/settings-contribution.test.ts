/**
 * package.json's `contributes.configuration` is the capabilities' descriptors, exactly: every setting a
 * descriptor declares is contributed with its key, type, range, default, scope and description (the text of
 * package.nls.json), and nothing is contributed that no descriptor declares.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { declaredSettings } from '../../src/engine/capabilities/descriptor-list.js';
import { capabilityDescriptors } from '../../src/engine/team/capabilities.js';

type Contributed = Record<string, unknown> & { markdownDescription?: string; description?: string; scope?: string };
const root = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Contributed> } };
};
const texts = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const contributed = manifest.contributes.configuration.properties;
const declared = declaredSettings(capabilityDescriptors);

/** The text VS Code shows for a contributed setting: its description, looked up in package.nls.json. */
function shownDescription(property: Contributed): string | undefined {
  const text = property.markdownDescription ?? property.description;
  const key = /^%(.+)%$/.exec(text ?? '')?.[1];
  return key === undefined ? text : texts[key];
}

describe('the settings package.json contributes', () => {
  it('are exactly the settings the descriptors declare, both ways', () => {
    expect(Object.keys(contributed).sort()).toEqual(declared.map(({ setting }) => setting.key).sort());
  });

  it.each(declared.map((entry) => [entry.setting.key, entry] as const))('%s: type, range, default, scope and description', (key, entry) => {
    const property = contributed[key]!;
    const { setting } = entry;
    const schema = z.toJSONSchema(setting.schema) as Record<string, unknown>;
    // zod bounds a whole number by the safe integers; the manifest leaves such a bound out.
    if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
    expect(property.type, 'type').toBe(schema.type);
    for (const field of ['enum', 'minimum', 'maximum', 'items'] as const) expect(property[field], field).toEqual(schema[field]);
    expect(property.default, 'default').toEqual(setting.default);
    expect(setting.schema.safeParse(setting.default).success, 'the default fits the schema').toBe(true);
    expect(property.scope ?? 'window', 'scope').toBe(setting.scope);
    expect(shownDescription(property), 'description').toBe(setting.description);
  });

  it('names each setting as its key does, so no two capabilities share a name', () => {
    for (const { name, setting } of declared) expect(setting.key).toBe(`agentTeam.${name}`);
  });

  it('scopes every setting read from the user alone to the application (a folder cannot hold it)', () => {
    for (const { setting } of declared.filter((entry) => entry.setting.trust === 'user'))
      expect(setting.scope, setting.key).toBe('application');
  });
});
