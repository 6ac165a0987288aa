/** Vitest global setup: the migrated database every test file copies (see database-template.ts). */
import { createDatabaseTemplate } from './database-template';

export default function setup(): Promise<() => Promise<void>> {
  return createDatabaseTemplate();
}
