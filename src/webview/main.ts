// The sidebar's browser bundle; filled in by the extension issue.
export {};
