/** The engine's own settings (provider, model, limits, budgets, telemetry), declared as a capability's are, under `core`. */
import { defineCapability } from '../capabilities/capability-descriptor.js';
import { coreModelSettings } from './core-model-settings.js';
import { coreRunSettings } from './core-run-settings.js';

export const coreDescriptor = defineCapability({ name: 'core', tools: [], settings: { ...coreModelSettings, ...coreRunSettings } });
