/**
 * Defence in depth for API keys: whatever text the host sends to the webview or writes to its log passes
 * through here, so a key that slipped into an error message (a provider echoing a header, say) is
 * replaced before it leaves. The protocol has no field for a key at all; this covers free text.
 */
export const redactedText = '[redacted]';

/** Keys shorter than this are not treated as secrets: replacing them would mangle ordinary text. */
const minimumSecretLength = 8;

export class SecretRedactor {
  private readonly secrets = new Set<string>();

  /** Remembers a secret (ignored when too short to be one). */
  add(secret: string | undefined): void {
    const trimmed = secret?.trim();
    if (trimmed && trimmed.length >= minimumSecretLength) this.secrets.add(trimmed);
  }

  /** The secrets known so far (commands must not get them under any variable name). */
  values(): string[] {
    return [...this.secrets];
  }

  /** The text with every known secret replaced by `[redacted]`. */
  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) if (result.includes(secret)) result = result.split(secret).join(redactedText);
    return result;
  }

  /** A copy of a JSON-like value with every string redacted (objects and arrays walked). */
  redactValue<Value>(value: Value): Value {
    if (this.secrets.size === 0) return value;
    return this.walk(value) as Value;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (typeof value === 'object' && value !== null) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[key] = this.walk(item);
      return copy;
    }
    return value;
  }
}
