/**
 * The parts of the official A2A SDK the engine uses as a client. Loaded with `import()` only when a remote
 * role's task starts, from a bundle of its own (scripts/vendor-bundles.mjs), so neither the extension's
 * activation nor a run without remote roles pays for it.
 */
export { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
