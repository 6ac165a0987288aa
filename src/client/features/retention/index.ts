export { retentionKeys } from './api/retention-api';
export { type ErasePerson, ErasePersonDialog } from './components/erase-person-dialog';
export { RetentionSettings } from './components/retention-settings';
