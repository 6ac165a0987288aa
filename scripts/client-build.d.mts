export declare const CLIENT_SOURCES: string[];
export declare const BUILD_STAMP: string;
export declare function newestModification(root: string, paths?: string[]): number;
export declare function clientBuildReason(root: string): string | null;
