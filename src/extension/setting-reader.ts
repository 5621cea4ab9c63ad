/**
 * Reads the settings capabilities declare from VS Code, each by its descriptor's rule of whose value counts
 * (`SettingTrust`), so that an untrusted folder cannot redirect the agents nor loosen what protects the
 * user, whatever VS Code merges. `inspect` rather than `get`: the rule holds per scope.
 */
import type * as vscode from 'vscode';
import {
  capabilityDescriptors,
  type CapabilitySettings,
  declaredSettings,
  defaultCapabilitySettings,
  type SettingDescriptor,
} from '../engine/index.js';

export const configurationSection = 'agentTeam';

/** Every declared setting, keyed by capability; `trusted` false ignores a folder's values of the `trusted` ones. */
export function readCapabilitySettings(configuration: vscode.WorkspaceConfiguration, trusted: boolean): CapabilitySettings {
  const settings = defaultCapabilitySettings() as Record<string, Record<string, unknown>>;
  for (const { capability, name, setting } of declaredSettings(capabilityDescriptors))
    settings[capability]![name] = readDeclaredSetting(configuration, setting, trusted);
  return settings as CapabilitySettings;
}

export function readDeclaredSetting<T>(configuration: vscode.WorkspaceConfiguration, setting: SettingDescriptor<T>, trusted: boolean): T {
  const stored = storedValue(configuration, setting, trusted);
  if (setting.read) return setting.read(stored);
  const parsed = setting.schema.safeParse(stored);
  return parsed.success ? parsed.data : structuredClone(setting.default);
}

/** What counts of what the user and the folders stored, by the setting's rule; undefined: nothing that counts. */
function storedValue(configuration: vscode.WorkspaceConfiguration, setting: SettingDescriptor, trusted: boolean): unknown {
  const key = setting.key.slice(configurationSection.length + 1);
  const inspected = configuration.inspect<unknown>(key);
  const scopes = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue];
  switch (setting.trust) {
    case 'any':
      return configuration.get<unknown>(key);
    case 'user':
      return inspected?.globalValue;
    // A folder may only turn it off (hooks, checks): the user's off is never undone by a folder.
    case 'off-wins':
      return scopes.includes(false) ? false : setting.default;
    // A folder may only turn it on (plan approval): the user's on is never undone by a folder.
    case 'on-wins':
      return scopes.includes(true) ? true : setting.default;
    case 'trusted':
      return trusted ? configuration.get<unknown>(key) : (inspected?.globalValue ?? inspected?.defaultValue);
  }
}
