/**
 * Which generation of the A2A protocol a version string belongs to, drawn where the SDK's compatibility
 * layer draws it: [0.3, 1.0) is 0.3, 1.x is 1.0; nothing given is 0.3 (the spec's default for a request
 * without `A2A-Version`). Anything else (0.2, 2.0, "latest") is a version we do not speak.
 */
export type ProtocolGeneration = '1.0' | '0.3';

export function protocolGeneration(version: string | undefined): ProtocolGeneration | undefined {
  const text = (version ?? '').trim();
  if (text === '') return '0.3';
  const match = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(text);
  if (!match) return undefined;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if (major === 1) return '1.0';
  if (major === 0 && minor >= 3) return '0.3';
  return undefined;
}

export function isLegacyVersion(version: string | undefined): boolean {
  return protocolGeneration(version) === '0.3';
}
