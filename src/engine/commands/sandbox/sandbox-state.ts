/**
 * Whether commands run in the OS sandbox here, and how that is told to the user before they allow one.
 */
import type { SandboxAvailability } from './sandbox-availability.js';

/**
 * How a command runs, as the user is told before allowing it. Without a sandbox every command asks every
 * time and "Always" is not offered; with the sandbox turned off by the user, commands run as the user.
 */
export interface CommandIsolation {
  /** `sandbox`: in the OS sandbox; `unavailable`: no sandbox on this machine; `off`: the user turned it off. */
  kind: 'sandbox' | 'unavailable' | 'off';
  /** True when the command may reach the network. */
  network: boolean;
  /** One plain sentence for the user, e.g. "In the OS sandbox, without network." */
  summary: string;
  /** False when "Always for this workspace" must not be offered (no sandbox: every command asks). */
  offerAlways: boolean;
}

/** `agentTeam.sandbox` / `--no-sandbox`: `auto` sandboxes where the OS allows it; `off` never does. */
export type SandboxSetting = 'auto' | 'off';

export type SandboxState =
  | { mode: 'sandbox'; availability: Extract<SandboxAvailability, { available: true }> }
  /** No sandbox here: every command asks, every time. */
  | { mode: 'unavailable'; reason: string }
  /** The user turned it off: commands run as the user, as allowed. */
  | { mode: 'off' };

export function sandboxState(setting: SandboxSetting, availability: SandboxAvailability | undefined): SandboxState {
  if (setting === 'off') return { mode: 'off' };
  if (!availability) return { mode: 'unavailable', reason: 'the sandbox could not be checked' };
  return availability.available ? { mode: 'sandbox', availability } : { mode: 'unavailable', reason: availability.reason };
}

export function describeIsolation(state: SandboxState, network: boolean): CommandIsolation {
  if (state.mode === 'sandbox') {
    const mechanism = state.availability.mechanism === 'bubblewrap' ? 'bubblewrap' : 'Seatbelt';
    return {
      kind: 'sandbox',
      network,
      summary: `In the OS sandbox (${mechanism}), ${network ? 'WITH network access' : 'without network'}: only its scratch copy is writable; your home and your workspace folder are hidden from it.`,
      offerAlways: true,
    };
  }
  if (state.mode === 'unavailable') {
    return {
      kind: 'unavailable',
      network: true,
      summary: `NOT in a sandbox (${state.reason}): it runs as you, with your files and your network. Without a sandbox every command asks, every time.`,
      offerAlways: false,
    };
  }
  return {
    kind: 'off',
    network: true,
    summary: 'NOT in a sandbox (turned off): it runs as you, with your files and your network.',
    offerAlways: true,
  };
}
