/**
 * The JSON Schemas a role file declares (`outputSchema`, `inputSchema`), checked with Ajv (installed with
 * the MCP SDK, which validates with it too). A role file is the repository's, so a schema is untrusted
 * input: its size and depth are capped, a `$ref` reaches only inside it (compiled synchronously, Ajv loads
 * nothing from the network), and when it checks a value its `pattern`s run on RE2, in time linear in the
 * text, never on V8's backtracking `RegExp` (`(a+)+$` against a model's answer would freeze the process).
 */
import { Ajv, Ajv2020, MissingRefError, type ErrorObject, type Options, type ValidateFunction } from './ajv-sdk.js';
import { loadRe2 } from '../workspace/regex-engine.js';

/** A JSON Schema as a role file writes it: an object (draft-07 unless its `$schema` names 2020-12). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A schema's JSON text longer than this is refused: a role's answer shape fits in far less. */
export const maxSchemaChars = 32_000;
/** Nesting deeper than this is refused (compiling a deeper schema could exhaust the stack). */
export const maxSchemaDepth = 32;
/** Problems listed at most per check: enough for the model to fix its answer, short enough to read. */
const maxProblems = 10;

/** What is wrong with a value, one line per problem; empty when it matches. */
export type SchemaCheck = (value: unknown) => string[];

type PatternEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

const draft2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const draft07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/**
 * Why `value` cannot be used as a schema, or undefined when it can: used when a role file is read, so a
 * bad schema is an error on its line there, not a failure in the middle of a run. Patterns are checked
 * for syntax here with `RegExp` (built, never run); RE2 checks them again when the schema is first used.
 */
export function schemaProblem(value: unknown): string | undefined {
  const shape = shapeProblem(value);
  if (shape !== undefined) return shape;
  const syntaxOnly = Object.assign((pattern: string, flags: string) => (new RegExp(pattern, flags), { test: () => true }), {
    code: 'syntax-check',
  });
  try {
    compile(value as JsonSchema, syntaxOnly);
    return undefined;
  } catch (error) {
    // Ajv's words for a missing reference quote it; the file's own text is not repeated back.
    if (error instanceof MissingRefError)
      return "has a '$ref' that does not point inside it (only references within the schema, like '#/$defs/item', are followed)";
    return `is not a JSON Schema that can be used: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const compiled = new WeakMap<JsonSchema, Promise<SchemaCheck>>();

/** The check for `schema`, compiled once per schema object, its patterns on RE2. Rejects with why it cannot be used. */
export function schemaCheck(schema: JsonSchema): Promise<SchemaCheck> {
  let check = compiled.get(schema);
  if (!check) {
    check = loadRe2().then((RE2JS) => {
      const re2: PatternEngine = Object.assign(
        (pattern: string) => {
          const expression = RE2JS.compile(pattern);
          return { test: (text: string) => expression.test(text) };
        },
        { code: 're2' },
      );
      const validate = compile(schema, re2);
      return (value: unknown) => {
        try {
          return validate(value) ? [] : describeErrors(validate.errors ?? []);
        } catch {
          // A recursive schema over a value nested thousands deep runs out of stack: that value is not accepted.
          return ['the value is nested too deeply to check'];
        }
      };
    });
    compiled.set(schema, check);
  }
  return check;
}

function shapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be a JSON Schema object, e.g. {type: object, properties: {…}, required: […]}';
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'must be plain JSON (no anchors that loop)';
  }
  if (text.length > maxSchemaChars) return `is ${text.length} characters long as JSON, over the limit of ${maxSchemaChars}`;
  if (depthOf(value) > maxSchemaDepth) return `nests deeper than ${maxSchemaDepth} levels`;
  const declared = (value as JsonSchema).$schema;
  if (declared !== undefined && !(typeof declared === 'string' && (draft2020.test(declared) || draft07.test(declared)))) {
    return "names a '$schema' other than draft-07 or 2020-12 (leave '$schema' out for draft-07)";
  }
  return undefined;
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > maxSchemaDepth || typeof value !== 'object' || value === null) return depth;
  let deepest = depth;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, depth + 1));
  return deepest;
}

function compile(schema: JsonSchema, patterns: PatternEngine): ValidateFunction {
  // A fresh instance per schema: two roles' `$id`s must not meet in one instance's cache.
  const options: Options = {
    allErrors: true,
    strict: false,
    validateFormats: false,
    addUsedSchema: false,
    logger: false,
    code: { regExp: patterns },
  };
  const ajv = typeof schema.$schema === 'string' && draft2020.test(schema.$schema) ? new Ajv2020(options) : new Ajv(options);
  return ajv.compile(schema as Record<string, unknown>);
}

function describeErrors(errors: readonly ErrorObject[]): string[] {
  const lines = errors.slice(0, maxProblems).map((error) => {
    const where = error.instancePath === '' ? 'the value' : error.instancePath;
    const extra = typeof error.params.additionalProperty === 'string' ? ` ('${error.params.additionalProperty}')` : '';
    return `${where} ${error.message ?? 'does not match'}${extra}`;
  });
  if (errors.length > maxProblems) lines.push(`… and ${errors.length - maxProblems} more`);
  return lines;
}
