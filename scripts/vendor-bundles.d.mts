import type { BuildOptions, Plugin } from 'esbuild';

export declare const vendorBundles: Readonly<Record<string, string>>;
export declare const vendorPlugin: Plugin;
export declare function vendorBuilds(outputDirectory: string, options?: { minify?: boolean }): BuildOptions[];
