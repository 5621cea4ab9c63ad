import type { Plugin } from 'esbuild';

export declare const reExportedOnce: string[];
export declare const reExportOncePlugin: Plugin;
