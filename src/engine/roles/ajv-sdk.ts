/**
 * Ajv's parts that role files' JSON Schemas are checked with (json-schema.ts), gathered here so that the
 * build puts them in a vendor bundle of their own (scripts/vendor-bundles.mjs), as it does the YAML parser:
 * the extension's core stays the size it was without them.
 */
export { Ajv, MissingRefError } from 'ajv';
export type { ErrorObject, Options, ValidateFunction } from 'ajv';
export { Ajv2020 } from 'ajv/dist/2020.js';
