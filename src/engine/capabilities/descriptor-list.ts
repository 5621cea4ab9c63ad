/**
 * What a list of capability descriptors adds up to: the tools roles may name, every setting with its
 * capability, and the settings' defaults keyed by capability (the value hosts fill and the engine reads).
 */
import type { CapabilityDescriptor, SettingDescriptor, SettingValues, ToolDescriptor } from './capability-descriptor.js';

/** The settings of a list, keyed by capability name: `settings.web.allowedDomains`. */
export type SettingsOf<List extends readonly CapabilityDescriptor[]> = {
  -readonly [Descriptor in List[number] as Descriptor['name']]: SettingValues<Descriptor['settings']>;
};

/** One setting of a list, with the capability that declares it and its name there. */
export interface DeclaredSetting {
  capability: string;
  name: string;
  setting: SettingDescriptor;
}

/** The tools a role may name, in the list's order (a tool given by circumstance, `listedInRoles: false`, is not one). */
export function roleTools(list: readonly CapabilityDescriptor[]): ToolDescriptor[] {
  return list.flatMap((descriptor) => descriptor.tools).filter((tool) => tool.listedInRoles !== false);
}

export function declaredSettings(list: readonly CapabilityDescriptor[]): DeclaredSetting[] {
  return list.flatMap((descriptor) =>
    Object.entries(descriptor.settings).map(([name, setting]) => ({ capability: descriptor.name, name, setting })),
  );
}

/** Every setting at its default; a list value is copied, so a caller changing it changes no descriptor. */
export function defaultSettingsOf<List extends readonly CapabilityDescriptor[]>(list: List): SettingsOf<List> {
  const settings: Record<string, Record<string, unknown>> = {};
  for (const { capability, name, setting } of declaredSettings(list)) {
    settings[capability] = { ...settings[capability], [name]: structuredClone(setting.default) };
  }
  for (const descriptor of list) settings[descriptor.name] ??= {};
  return settings as SettingsOf<List>;
}

/** The capabilities a list builds from their settings alone (`create`), each from its own part of `settings`. */
export function createdCapabilities<List extends readonly CapabilityDescriptor[]>(list: List, settings: () => SettingsOf<List>) {
  const values = () => settings() as Record<string, Record<string, unknown>>;
  return list.flatMap((descriptor) => (descriptor.create ? [descriptor.create(() => values()[descriptor.name] as never)] : []));
}
