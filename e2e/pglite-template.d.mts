export declare function seedDataDir(dataDir: string): Promise<void>;
